import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type { CitationDetail } from '../../../../shared/contract/answer-schemas.ts';
import { claimedText, foundText, statusLabel, verdictLabel } from '../answers/selectors.ts';
import { CopyCitation } from './CopyCitation.tsx';
import { markQuote, placePreview } from './preview-logic.ts';

const REST_MS = 350;
const LEAVE_MS = 250;

function rectOf(el: Element | null) {
  const r = el?.getBoundingClientRect();
  return r ? { left: r.left, top: r.top, width: r.width, height: r.height } : null;
}

/** The preview card: the quote with the matched words marked, status and verdict in words, the place, Open and Copy citation. */
function PreviewCard({ citation: c, id, anchor, currentId, onOpen, onClose, keep }: { citation: CitationDetail; id: string; anchor: HTMLElement; currentId: number | null; onOpen(): void; onClose(refocus: boolean): void; keep(): void }) {
  const box = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    const marker = rectOf(anchor);
    if (!el || !marker) return;
    const card = rectOf(currentId === null ? null : document.querySelector(`[data-citation-id="${currentId}"]`));
    const panel = rectOf(anchor.closest('.side'));
    setPos(placePreview(marker, card, { width: el.offsetWidth, height: el.offsetHeight }, { width: window.innerWidth, height: window.innerHeight }, panel ? panel.left + panel.width : marker.left + marker.width));
  }, [anchor, currentId]);
  const r = c.result;
  const status = r ? statusLabel(r.status) : null;
  const verdict = r ? verdictLabel(r.verdict) : null;
  const place = r?.place ? foundText(r.place, r.pageLabel) : claimedText(c.claimedLocator);
  const pieces = c.quote ? markQuote(c.quote, r?.matchedText ?? null) : [];
  return (
    <div
      ref={box}
      id={id}
      role="dialog"
      aria-label={`Preview of citation [${c.marker}]`}
      className="citation-preview"
      data-testid="citation-preview"
      style={pos ? { left: pos.left, top: pos.top } : { left: -9999, top: 0 }}
      onPointerEnter={keep}
      onPointerLeave={() => onClose(false)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose(true);
        }
        // The review's single-key commands stay out of the preview's own controls.
        e.stopPropagation();
      }}
    >
      <h4>
        [{c.marker}] {c.source?.fileName ?? c.unknownSource ?? 'no source given'}
      </h4>
      {c.quote ? (
        <blockquote className="preview-quote" data-testid="preview-quote">
          “
          {pieces.map((p, i) =>
            p.matched === true ? <mark key={i}>{p.text}</mark> : p.matched === false ? <span key={i} className="unmatched" title="Not in the found text">{p.text}</span> : <span key={i}>{p.text}</span>,
          )}
          ”
        </blockquote>
      ) : (
        <p className="muted">No quote: judged from the claim.</p>
      )}
      <dl>
        <dt>Status</dt>
        <dd>{status ? `${status.icon} ${status.text.replace(/_/g, ' ')}: ${status.hint}` : 'Not verified yet.'}</dd>
        <dt>Verdict</dt>
        <dd>{verdict ? `${verdict.text.replace(/_/g, ' ')}: ${verdict.hint}` : '—'}</dd>
        <dt>Place</dt>
        <dd>{place || 'no place given'}</dd>
      </dl>
      <div className="preview-actions">
        <button type="button" className="primary" onClick={onOpen}>
          Open
        </button>
        <CopyCitation citationId={c.id} marker={c.marker} />
      </div>
    </div>
  );
}

/**
 * Hover and focus preview for the answer's citation markers: it opens when the pointer rests on a
 * marker or the keyboard focuses one, closes with Escape, when the pointer leaves marker and
 * preview, or when focus leaves both; it is placed where it covers neither the marker nor the card
 * being read. `bind` gives a marker its handlers; `preview(id)` renders the card after the marker
 * (so Tab reaches its buttons next).
 */
export function useMarkerPreview(cardOf: (id: number) => CitationDetail | undefined, currentId: number | null, onOpen: (id: number) => void, want?: (id: number) => void) {
  const [open, setOpen] = useState<{ id: number; slot: string; anchor: HTMLElement } | null>(null);
  const rest = useRef<number | undefined>(undefined);
  const leave = useRef<number | undefined>(undefined);
  const clear = () => {
    window.clearTimeout(rest.current);
    window.clearTimeout(leave.current);
  };
  const close = useCallback((refocus: boolean) => {
    clear();
    setOpen((o) => {
      if (o && refocus) o.anchor.focus({ preventScroll: true });
      return null;
    });
  }, []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') close(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);
  useEffect(() => clear, []);

  const bind = (id: number, slot: string) => ({
    onPointerEnter: (e: { currentTarget: HTMLElement }) => {
      const anchor = e.currentTarget;
      clear();
      rest.current = window.setTimeout(() => {
        want?.(id);
        setOpen({ id, slot, anchor });
      }, REST_MS);
    },
    onPointerLeave: () => {
      window.clearTimeout(rest.current);
      leave.current = window.setTimeout(() => setOpen((o) => (o?.slot === slot ? null : o)), LEAVE_MS);
    },
    onFocus: (e: FocusEvent<HTMLElement>) => {
      // Keyboard focus only: a click opens the citation itself.
      if (e.currentTarget.matches(':focus-visible')) {
        clear();
        want?.(id);
        setOpen({ id, slot, anchor: e.currentTarget });
      }
    },
    onBlur: (e: FocusEvent<HTMLElement>) => {
      const to = e.relatedTarget;
      if (to instanceof Node && document.getElementById(`preview-${id}`)?.contains(to)) return;
      setOpen((o) => (o?.slot === slot ? null : o));
    },
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
      if (e.key === 'Escape' && open?.slot === slot) {
        e.preventDefault();
        e.stopPropagation();
        close(false);
      }
    },
    'aria-describedby': open?.slot === slot ? `preview-${id}` : undefined,
  });

  const preview = (id: number, slot: string) => {
    if (open?.slot !== slot || open.id !== id) return null;
    const c = cardOf(id);
    if (!c) return null;
    return (
      <PreviewCard
        citation={c}
        id={`preview-${id}`}
        anchor={open.anchor}
        currentId={currentId}
        onOpen={() => {
          close(false);
          onOpen(id);
        }}
        onClose={(refocus) => {
          if (refocus) close(true);
          else leave.current = window.setTimeout(() => setOpen(null), LEAVE_MS);
        }}
        keep={clear}
      />
    );
  };
  return { bind, preview };
}
