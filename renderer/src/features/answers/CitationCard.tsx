import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type Ref } from 'react';
import type { CitationDetail, ReviewDecision } from '../../../../shared/contract/answer-schemas.ts';
import type { Health } from '../../../../shared/contract/schemas.ts';
import { CopyCitation } from '../links/CopyCitation.tsx';
import { OCR_NOTE_PREFIX } from '../../../../shared/ocr/ocr-text.ts';
import { citedSourceName } from '../../../../shared/domain/cited-source.ts';
import { HealthBadge } from '../relink/HealthBadge.tsx';
import { useAnswers } from './answers-store.ts';
import { Pill } from './Pill.tsx';
import { ReviewHistory } from './ReviewHistory.tsx';
import { acceptNeedsNote, decisionPill } from './review-trail.ts';
import { citationTone, claimedText, foundText, methodLabel, percent, statusLabel, verdictLabel } from './selectors.ts';
import { ClosestLine, JudgeLine, MatchDiff, MethodChip } from './CardEvidence.tsx';

interface Props {
  citation: CitationDetail;
  health: Health | null;
  current: boolean;
  expanded: boolean;
  onOpen(): void;
  ref?: Ref<HTMLElement>;
}

/** Clicks on the card's own controls do their own thing; a click anywhere else opens the citation. */
function isControl(target: EventTarget): boolean {
  return target instanceof Element && target.closest('button, input, textarea, select, a, label, summary') !== null;
}

/** One citation: claim, quote, source and places, status and verdict, review; expands to context and diff. */
export function CitationCard({ citation: c, health, current, expanded, onOpen, ref }: Props) {
  const { toggleExpanded, review, undo, draft, setDraft, reviewError, setCurrent, openClosest } = useAnswers();
  const r = c.result;
  const claimed = claimedText(c.claimedLocator);
  const onOcr = r?.notes.some((n) => n.startsWith(OCR_NOTE_PREFIX)) ?? false;
  const found = r?.place ? `${foundText(r.place, r.pageLabel)}${onOcr ? ' · on OCR text' : ''}` : null;
  const drafting = draft?.citationId === c.id ? draft.decision : null;
  const sourceName = c.source?.fileName ?? (c.unknownSource !== null ? citedSourceName(c.unknownSource) : 'no source given');

  const onClick = (e: MouseEvent) => {
    if (!isControl(e.target)) onOpen();
  };
  // Every decision is a deliberate step: the button (or key) opens the form, which confirms it.
  const decide = (decision: ReviewDecision) => {
    setCurrent(c.id);
    setDraft({ citationId: c.id, decision });
  };

  return (
    <article
      ref={ref}
      className={`citation-card tone-${citationTone(c)} ${current ? 'current' : ''} ${c.history.length > 0 ? 'has-trail' : ''}`}
      aria-label={`Citation [${c.marker}]`}
      aria-current={current ? 'true' : undefined}
      data-citation-id={c.id}
      onClick={onClick}
    >
      <header className="card-head">
        <span className="marker">[{c.marker}]</span>
        {r ? (
          <>
            <Pill label={statusLabel(r.status, r.place?.unit)} role="status" />
            <Pill label={verdictLabel(r.verdict)} role="verdict" />
            <span className="score" title="How closely the found text matches the quote">
              score {percent(r.score)}
            </span>
            {r.method && <MethodChip method={r.method} />}
            <span className="confidence" title="How firmly the checks back the verdict">
              confidence {percent(r.confidence)}
            </span>
          </>
        ) : (
          <span className="muted">not verified</span>
        )}
        {current && <span className="current-tag">Current</span>}
        {c.review && c.review.decision !== 'cleared' && (
          <span className="review-state">
            <Pill label={decisionPill({ ...c.review, decision: c.review.decision })} role="decision" />
          </span>
        )}
      </header>
      {c.claim && <p className="claim">{c.claim}</p>}
      {c.quote ? (
        <blockquote className="quote" title="Open in the viewer">
          “{c.quote}”
        </blockquote>
      ) : (
        <p className="quote no-quote muted">No quote: a {c.method ?? 'paraphrase'}.</p>
      )}
      {r && c.quote && <MatchDiff result={r} quote={c.quote} />}
      {r?.closest && r.status === 'not_found' && <ClosestLine closest={r.closest} onShow={() => void openClosest(c.id)} />}
      {r?.judge && <JudgeLine opinion={r.judge} />}
      <dl className="places">
        <div>
          <dt>Source</dt>
          <dd>
            <span className="source-name" title={c.source?.sha256 ? `SHA-256 ${c.source.sha256}` : c.unknownSource !== null ? `Cited as ${c.unknownSource}` : undefined}>
              {sourceName}
            </span>
            {c.source?.removed ? (
              <span className="source-removed" data-testid="source-removed">
                removed from the library
              </span>
            ) : (
              c.source && health && <HealthBadge health={health} />
            )}
          </dd>
        </div>
        <div>
          <dt>Claimed</dt>
          <dd>{claimed || <span className="muted">no location</span>}</dd>
        </div>
        <div>
          <dt>Found</dt>
          <dd className={r?.status === 'verified_elsewhere' ? 'moved' : undefined}>{found ?? <span className="muted">—</span>}</dd>
        </div>
      </dl>
      {c.review?.note && (
        <p className="review-note">
          <span className="muted">Note:</span> {c.review.note}
        </p>
      )}
      <div className="card-actions">
        <button type="button" onClick={onOpen} className="open-button" title="Open in the viewer (Enter)">
          Open
        </button>
        <button type="button" className="link" aria-expanded={expanded} onClick={() => toggleExpanded(c.id)} title="Context, diff and notes (x)">
          {expanded ? 'Hide details ▴' : 'Details ▾'}
        </button>
        <CopyCitation citationId={c.id} marker={c.marker} />
        <span className="decide" role="group" aria-label={`Review [${c.marker}]`}>
          <button type="button" className={`decide-accept ${c.review?.decision === 'accepted' ? 'chosen' : ''}`} onClick={() => decide('accepted')} title="Accept, after a confirm (a, then Enter)">
            ✓ Accept…
          </button>
          <button type="button" className={`decide-reject ${c.review?.decision === 'rejected' ? 'chosen' : ''}`} onClick={() => decide('rejected')} title="Reject, with a note (r)">
            ✖ Reject…
          </button>
          <button type="button" className={`decide-flag ${c.review?.decision === 'flagged' ? 'chosen' : ''}`} onClick={() => decide('flagged')} title="Flag, with a note (f)">
            ⚑ Flag…
          </button>
        </span>
      </div>
      {drafting && (
        <NoteForm
          decision={drafting}
          marker={c.marker}
          initial={drafting === 'accepted' ? '' : (c.review?.note ?? '')}
          needsNote={drafting === 'accepted' ? acceptNeedsNote(r ? { status: r.status, verdict: r.verdict } : null) : null}
          onSave={(note) => void review(c.id, drafting, note)}
          onCancel={() => setDraft(null)}
        />
      )}
      <ReviewHistory
        citation={c}
        onUndo={() => {
          setCurrent(c.id);
          void undo(c.id);
        }}
        onClear={() => {
          setCurrent(c.id);
          void review(c.id, 'cleared');
        }}
      />
      {reviewError?.citationId === c.id && (
        <p className="error" role="alert">
          {reviewError.text}
        </p>
      )}
      {expanded && <Details citation={c} />}
    </article>
  );
}

const VERB: Record<ReviewDecision, string> = { accepted: 'Accept', rejected: 'Reject', flagged: 'Flag' };

/** What the form asks, in plain words: a note is required to accept a citation whose evidence failed. */
function noteQuestion(decision: ReviewDecision, marker: string, needsNote: string | null): string {
  if (decision === 'flagged') return 'Why flag it? (what to follow up)';
  if (decision === 'rejected') return 'Why reject it? (optional)';
  if (needsNote) return `Accepting [${marker}] needs a note: ${needsNote}. Why do you accept it anyway?`;
  return `Accept [${marker}]? Press Enter to confirm; a note is optional.`;
}

function NoteForm({
  decision,
  marker,
  initial,
  needsNote,
  onSave,
  onCancel,
}: {
  decision: ReviewDecision;
  marker: string;
  initial: string;
  needsNote: string | null;
  onSave(note: string): void;
  onCancel(): void;
}) {
  const [note, setNote] = useState(initial);
  const [missing, setMissing] = useState(false);
  const verb = VERB[decision];
  const form = useRef<HTMLFormElement>(null);
  // The form goes away once done: the card list keeps the focus, so the keys go on working.
  const done = (then: () => void) => {
    form.current?.closest<HTMLElement>('[data-keys]')?.focus({ preventScroll: true });
    then();
  };
  // The service refuses such an accept too (REVIEW_NOTE_REQUIRED); asking here saves the round trip.
  const save = () => {
    if (needsNote && note.trim() === '') setMissing(true);
    else done(() => onSave(note));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    // Enter saves (Shift+Enter for a new line); Escape leaves the decision as it was.
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      done(onCancel);
    }
    e.stopPropagation();
  };
  return (
    <form
      ref={form}
      className={`note-form decide-${decision} ${needsNote ? 'needs-note' : ''}`}
      aria-label={`${verb} [${marker}]`}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label>
        {noteQuestion(decision, marker, needsNote)}
        <textarea
          aria-label={`Note for [${marker}]`}
          value={note}
          onChange={(e) => {
            setNote(e.target.value);
            setMissing(false);
          }}
          onKeyDown={onKeyDown}
          rows={2}
          autoFocus
          maxLength={10_000}
          aria-invalid={missing || undefined}
        />
      </label>
      {missing && (
        <p className="error" role="alert">
          Write a note first: say why you accept [{marker}] although {needsNote}.
        </p>
      )}
      <span className="note-buttons">
        <button type="submit" className="primary">
          {verb} [{marker}]
        </button>
        <button type="button" onClick={() => done(onCancel)}>
          Cancel
        </button>
      </span>
    </form>
  );
}

/** The text around the found quote, the context the answer gave, and the verifier's notes. */
function Details({ citation: c }: { citation: CitationDetail }) {
  const r = c.result;
  const box = useRef<HTMLDivElement>(null);
  // Opened from the keyboard near the bottom of the list, the details would be out of sight.
  useEffect(() => box.current?.scrollIntoView({ block: 'nearest' }), []);
  return (
    <div className="card-details" ref={box}>
      {r?.matchedText && (
        <section>
          <h4>In the source{r.method ? ` (${methodLabel(r.method).text.toLowerCase()})` : ''}</h4>
          <p className="context" data-testid="context">
            {r.prefix ? `…${r.prefix}` : ''}
            <mark>{r.matchedText}</mark>
            {r.suffix ? `${r.suffix}…` : ''}
          </p>
        </section>
      )}
      {c.context && (
        <section>
          <h4>Context given by the answer</h4>
          <p className="context">{c.context}</p>
        </section>
      )}
      {r && r.notes.length > 0 && (
        <section>
          <h4>Verifier notes</h4>
          <ul className="notes">
            {r.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </section>
      )}
      <p className="muted">
        {[c.method && `Cited as ${c.method}`, c.confidence && `confidence ${c.confidence}`, r && `verdict confidence ${percent(r.confidence)}`, c.review && `decided ${new Date(c.review.createdAt).toLocaleString()}`]
          .filter(Boolean)
          .join(' · ')}
      </p>
    </div>
  );
}
