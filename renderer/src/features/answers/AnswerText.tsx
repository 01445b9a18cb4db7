import { useMemo } from 'react';
import type { CitationDetail } from '../../../../shared/contract/answer-schemas.ts';
import { useMarkerPreview } from '../links/CitationPreview.tsx';
import { answerTextParts, citationTone, statusLabel } from './selectors.ts';

/** The answer as written, each citation marker a button that opens its citation. */
export function AnswerText({ text, citations, currentId, onOpen }: { text: string; citations: readonly CitationDetail[]; currentId: number | null; onOpen(id: number): void }) {
  const parts = useMemo(() => answerTextParts(text, citations), [text, citations]);
  const byId = useMemo(() => new Map(citations.map((c) => [c.id, c])), [citations]);
  const previews = useMarkerPreview(citations, currentId, onOpen);
  return (
    <div className="answer-text" data-testid="answer-text">
      {parts.map((part, i) =>
        'text' in part ? (
          <span key={i}>{part.text}</span>
        ) : (
          <span key={i} className="marker-group">
            {part.markers.map(({ label, citationId }, j) => {
              const c = citationId === null ? undefined : byId.get(citationId);
              if (!c) return <span key={j} className="marker-text" title="No citation has this marker">[{label}]</span>;
              const status = c.result ? statusLabel(c.result.status, c.result.place?.unit) : null;
              return (
                <span key={j} className="marker-slot">
                <button
                  type="button"
                  className={`inline-marker tone-${citationTone(c)} ${c.id === currentId ? 'current' : ''}`}
                  onClick={() => onOpen(c.id)}
                  title={status ? `[${label}] ${status.text}: ${status.hint}` : `[${label}]`}
                  aria-label={`Citation [${label}]${status ? `, ${status.text}` : ''}`}
                  {...previews.bind(c.id, `${i}-${j}`)}
                >
                  {label}
                  {status && <span aria-hidden="true"> {status.icon}</span>}
                </button>
                {previews.preview(c.id, `${i}-${j}`)}
                </span>
              );
            })}
          </span>
        ),
      )}
    </div>
  );
}
