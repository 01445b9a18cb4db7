import { Fragment, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { CitationMark } from '../../../../shared/contract/card-schemas.ts';
import { useCards } from './cards-store.ts';
import { useMarkerPreview } from '../links/CitationPreview.tsx';
import { answerTextParts, markTone, plainBlocks, statusLabel, textBlocks, type TextPart } from './selectors.ts';

/** Answers with fewer markers are drawn whole; longer ones in blocks drawn when near the screen. */
const WHOLE_BELOW = 400;
const MARKERS_PER_BLOCK = 100;
/** A block's height before it is first laid out: its characters over a line's, times a line's height (14px × 1.65). */
const CHARS_PER_LINE = 64;
const LINE_PX = 23;
/** Characters of a block of a long answer's text while its markers are not read yet (about as long as a block). */
const PLAIN_BLOCK_CHARS = 4000;
/** A long answer's markers before they are read. */
const NOT_YET: readonly CitationMark[] = [];

/** A block's guessed height until it is laid out, then the height it had (content-visibility, answers.css). */
function blockStyle(plain: string) {
  return { containIntrinsicBlockSize: `auto ${Math.ceil(plain.length / CHARS_PER_LINE) * LINE_PX}px` };
}

/**
 * The answer as written, each citation marker a button that opens its citation. An answer of 5,000
 * citations has 5,000 markers (issue 16): each is one button in its group, its status icon in its
 * text (two elements a marker), and only the blocks of text near the screen draw their buttons.
 */
export function AnswerText({ text, marks: given, currentId, onOpen }: { text: string; marks: readonly CitationMark[]; currentId: number | null; onOpen(id: number): void }) {
  // A long answer's markers are read in the background once the review is drawn (issue 16): its
  // first cards do not wait for thousands of markers; meanwhile its text shows, plain.
  const marks = useDeferredValue(given, given.length >= WHOLE_BELOW ? NOT_YET : given);
  const reading = marks === NOT_YET;
  const parts = useMemo(() => (reading ? [] : answerTextParts(text, marks)), [text, marks, reading]);
  const blocks = useMemo(() => (marks.length < WHOLE_BELOW ? null : textBlocks(parts, MARKERS_PER_BLOCK)), [parts, marks.length]);
  const byId = useMemo(() => new Map(marks.map((c) => [c.id, c])), [marks]);
  // A preview shows the card: held, or fetched when the preview opens (the text redraws for that card only).
  const [previewId, setPreviewId] = useState<number | null>(null);
  const previewCard = useCards((s) => (previewId === null ? undefined : s.held(previewId)));
  const previews = useMarkerPreview(
    (id) => (id === previewId ? previewCard : useCards.getState().held(id)),
    currentId,
    onOpen,
    (id) => {
      setPreviewId(id);
      void useCards.getState().cardOf(id);
    },
  );
  const drawPart = (part: TextPart, i: number | string): ReactNode =>
    'text' in part ? (
      <Fragment key={i}>{part.text}</Fragment>
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
    );
  if (reading) {
    return (
      <div className="answer-text" data-testid="answer-text">
        {plainBlocks(text, PLAIN_BLOCK_CHARS).map((plain, i) => (
          <div key={i} className="text-block" style={blockStyle(plain)}>
            {plain}
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="answer-text" data-testid="answer-text">
      {blocks === null
        ? parts.map((part, i) => drawPart(part, i))
        : blocks.map((block, b) => <TextBlock key={b} plain={block.plain} draw={() => block.parts.map((part, i) => drawPart(part, `${b}.${i}`))} />)}
    </div>
  );
}

/** A block of the answer text: its plain words until it comes near the screen, then its marker buttons. */
function TextBlock({ plain, draw }: { plain: string; draw: () => ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setNear(true);
    }, { rootMargin: '600px 0px' });
    seen.observe(el);
    return () => seen.disconnect();
  }, [near]);
  // A block of its own, laid out only near the screen. Drawn once near, it stays: its buttons keep
  // focus and previews while the analyst scrolls back.
  return (
    <div ref={ref} className="text-block" style={blockStyle(plain)}>
      {near ? draw() : plain}
    </div>
  );
}
