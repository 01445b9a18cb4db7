import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type RefObject } from 'react';
import { DRAW_WHOLE_BELOW, INITIAL_RECT, keepSizeWhileHidden, measureShown, useScrollMargin, placedRow, useRevealWhenLoaded } from '../../app/virtual-lists.ts';
import type { CitationDetail } from '../../../../shared/contract/answer-schemas.ts';
import type { Health } from '../../../../shared/contract/schemas.ts';
import { rowAt } from '../../app/page-window.ts';
import { CitationCard } from './CitationCard.tsx';
import { useCards } from './cards-store.ts';

interface Props {
  /** The ids the filter shows, in answer order; their cards come from the pages held (useCards). */
  ids: readonly number[];
  /** The review's scroll area: the cards scroll with the ledger and the answer text above them. */
  scrollElement: RefObject<HTMLDivElement | null>;
  currentId: number | null;
  expanded: Record<number, boolean>;
  healthOf: (sourceId: number) => Health;
  onOpen: (citationId: number) => void;
  /** Bring this card into view (a keyboard move, a marker clicked); `tick` asks again for the same card. */
  scrollTarget: { id: number; tick: number } | null;
}

/** What a card is told, in either drawing. */
function cardProps(c: CitationDetail, p: Pick<Props, 'currentId' | 'expanded' | 'healthOf' | 'onOpen'>) {
  return { citation: c, health: c.source ? p.healthOf(c.source.id) : null, current: c.id === p.currentId, expanded: p.expanded[c.id] === true, onOpen: () => p.onOpen(c.id) };
}

/** Space between cards: the rows are placed absolutely, so the list's gap is each row's padding. */
const GAP = 8;
/** A card's height before it is measured (a card with a short quote, closed, is about 210 px). */
const ESTIMATE = 200;

/**
 * The citation cards drawn virtually (issue 16): a 5,000-citation answer puts a screenful of cards in
 * the page, each sized as drawn. The current card lives in the store, so it stays current while it
 * is scrolled out of the page; screen readers hear the list's size and each card's place in it.
 */
export function VirtualCards(props: Props) {
  return props.ids.length <= DRAW_WHOLE_BELOW ? <WholeCards {...props} /> : <DrawnCards {...props} />;
}

/** A short list drawn whole, in the page's flow; a requested card is scrolled to by its element. */
function WholeCards({ ids, currentId, expanded, healthOf, onOpen, scrollTarget }: Props) {
  const cards = useRef(new Map<number, HTMLElement>());
  const window = useCards((s) => s.window);
  const ensureRows = useCards((s) => s.ensureRows);
  useEffect(() => {
    void ensureRows(0, ids.length - 1);
  }, [ids, ensureRows]);
  const shown = ids.flatMap((_, i) => {
    const c = rowAt(window, i);
    return c ? [c] : [];
  });
  useEffect(() => {
    if (scrollTarget) cards.current.get(scrollTarget.id)?.scrollIntoView({ block: 'nearest' });
  }, [scrollTarget]);
  return (
    <div className="cards" role="list" aria-label="Citations">
      {shown.map((c, i) => (
        <div role="listitem" key={c.id} aria-setsize={ids.length} aria-posinset={i + 1}>
          <CitationCard
            ref={(el) => {
              if (el) cards.current.set(c.id, el);
              else cards.current.delete(c.id);
            }}
            {...cardProps(c, { currentId, expanded, healthOf, onOpen })}
          />
        </div>
      ))}
    </div>
  );
}

function DrawnCards({ ids, scrollElement, currentId, expanded, healthOf, onOpen, scrollTarget }: Props) {
  const listRef = useRef<HTMLDivElement>(null);
  const window = useCards((s) => s.window);
  const ensureRows = useCards((s) => s.ensureRows);
  // Where the list starts inside the scroll area (below the ledger and the answer text).
  const margin = useScrollMargin(listRef, scrollElement);

  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scrollElement.current,
    estimateSize: () => ESTIMATE,
    overscan: 4,
    initialRect: INITIAL_RECT,
    observeElementRect: keepSizeWhileHidden,
    measureElement: measureShown(ESTIMATE),
    scrollMargin: margin,
    getItemKey: (i) => ids[i] ?? i,
  });

  // A card far away is scrolled to again once its page arrives.
  const revealer = useRevealWhenLoaded(virtualizer, window);
  useEffect(() => {
    if (!scrollTarget) return;
    const index = ids.indexOf(scrollTarget.id);
    if (index >= 0) revealer.reveal(index);
    // Only a new request scrolls: the list changing under a card already in view leaves it be.
  }, [scrollTarget]);

  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  // The pages under what is drawn, fetched by their keys when not held (a few pages at most).
  useEffect(() => {
    if (last >= first) void ensureRows(first, last);
  }, [first, last, ensureRows, ids]);
  return (
    <div ref={listRef} className="cards virtual" role="list" aria-label="Citations" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
      {items.map((item) => {
        const c = rowAt(window, item.index);
        if (!c) {
          return (
            <div role="listitem" key={item.key} ref={virtualizer.measureElement} {...placedRow(item, ids.length, margin, GAP)}>
              {/* As tall as a card is guessed to be, so the list's length does not jump while its page comes. */}
              <p className="muted card-loading" style={{ height: ESTIMATE - GAP, margin: 0 }}>
                Loading citation {item.index + 1}…
              </p>
            </div>
          );
        }
        return (
          <div
            role="listitem"
            key={item.key}
            ref={virtualizer.measureElement}
            {...placedRow(item, ids.length, margin, GAP)}
          >
            <CitationCard {...cardProps(c, { currentId, expanded, healthOf, onOpen })} />
          </div>
        );
      })}
    </div>
  );
}
