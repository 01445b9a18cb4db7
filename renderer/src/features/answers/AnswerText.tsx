import { Fragment, useMemo } from 'react';
import type { CitationMark } from '../../../../shared/contract/card-schemas.ts';
import { useCards } from './cards-store.ts';
import { useMarkerPreview } from '../links/CitationPreview.tsx';
import { answerTextParts, markTone, statusLabel } from './selectors.ts';

/**
 * The answer as written, each citation marker a button that opens its citation. An answer of 5,000
 * citations has 5,000 markers (issue 16): each is one button in its group, its status icon in its
 * text (two elements a marker, where there were five).
 */
export function AnswerText({ text, marks, currentId, onOpen }: { text: string; marks: readonly CitationMark[]; currentId: number | null; onOpen(id: number): void }) {
  const parts = useMemo(() => answerTextParts(text, marks), [text, marks]);
  const byId = useMemo(() => new Map(marks.map((c) => [c.id, c])), [marks]);
  // A preview shows the card: held, or fetched when the preview opens.
  useCards((s) => s.window);
  const cards = useCards.getState();
  const previews = useMarkerPreview((id) => cards.held(id), currentId, onOpen, (id) => void cards.cardOf(id));
  return (
    <div className="answer-text" data-testid="answer-text">
      {parts.map((part, i) =>
        'text' in part ? (
          part.text
        ) : (
          <span key={i} className="marker-group">
            {part.markers.map(({ label, citationId }, j) => {
              const c = citationId === null ? undefined : byId.get(citationId);
              if (!c) return <span key={j} className="marker-text" title="No citation has this marker">[{label}]</span>;
              const status = c.status ? statusLabel(c.status, c.unit ?? undefined) : null;
              const slot = `${i}-${j}`;
              return (
                <Fragment key={j}>
                  <button
                    type="button"
                    className={`inline-marker tone-${markTone(c)}${c.id === currentId ? ' current' : ''}`}
                    onClick={() => onOpen(c.id)}
                    title={status ? `[${label}] ${status.text}: ${status.hint}` : `[${label}]`}
                    aria-label={`Citation [${label}]${status ? `, ${status.text}` : ''}`}
                    {...previews.bind(c.id, slot)}
                  >
                    {status ? `${label} ${status.icon}` : label}
                  </button>
                  {previews.preview(c.id, slot)}
                </Fragment>
              );
            })}
          </span>
        ),
      )}
    </div>
  );
}
