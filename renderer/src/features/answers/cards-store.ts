import { create } from 'zustand';
import type { CitationDetail } from '../../../../shared/contract/answer-schemas.ts';
import type { CardFilter, CardListSummary } from '../../../../shared/contract/card-schemas.ts';
import { client } from '../../api/client.ts';
import { emptyWindow, heldRows, holdPage, pagesCovering, type PageWindow } from '../../app/page-window.ts';

/** Cards per page, and how many pages the renderer holds at most (issue 16: never the whole answer). */
export const CARD_PAGE = 50;
const MAX_PAGES = 6;

/**
 * The citation cards of the open answer as pages (issue 16): the filter's shape (its length, ids and
 * page starts) from answers.cardsSummary, and the few pages of cards around what is on screen from
 * answers.cards, by keyset cursor. The filtering and counting is SQL's.
 */
interface CardsState {
  answerId: number | null;
  filter: CardFilter;
  summary: CardListSummary | null;
  window: PageWindow<CitationDetail>;
  error: string | null;
  /** The list of `answerId` under `filter`: its shape and first page, fetched side by side. */
  load(answerId: number | null, filter: CardFilter): Promise<void>;
  /**
   * The list of `answerId` under `filter` as answers.open brings it: emptied now, then given its
   * shape and first page by the function returned (ignored if another list was asked for meanwhile).
   */
  begin(answerId: number, filter: CardFilter): (summary: CardListSummary, first: readonly CitationDetail[]) => void;
  /**
   * The list held, again (a decision recorded, citations arrived): its shape and first page as
   * answers.open brought them for `answerId` under `filter`, the other pages held fetched again.
   */
  refill(answerId: number, filter: CardFilter, summary: CardListSummary, first: readonly CitationDetail[]): Promise<void>;
  /** Fetches the pages covering list positions first..last that are not held yet. */
  ensureRows(first: number, last: number): Promise<void>;
  /** A card held now, if any. */
  held(id: number): CitationDetail | undefined;
  /** A card, its page fetched when not held (a marker clicked, a key pressed). */
  cardOf(id: number): Promise<CitationDetail | null>;
  /** A held card changed in place (a new row in its trail). */
  patch(id: number, change: (c: CitationDetail) => CitationDetail): void;
}

/** Each new list; a page arriving for an older one is dropped. */
let generation = 0;
const inFlight = new Map<string, Promise<void>>();

async function fetchPage(answerId: number, filter: CardFilter, summary: CardListSummary, k: number): Promise<CitationDetail[]> {
  const after = summary.pageStarts[k];
  const page = await client.call('answers.cards', { id: answerId, filter, limit: summary.pageSize, ...(after ? { after } : {}) });
  return page.rows.map((r) => r.citation);
}

export const useCards = create<CardsState>((set, get) => {
  /** Page k of the current list, once, however many ask for it at the same time. */
  const hold = (k: number, keep: readonly number[]): Promise<void> => {
    const { answerId, filter, summary } = get();
    if (answerId === null || !summary || get().window.pages.has(k)) return Promise.resolve();
    const gen = generation;
    const key = `${gen}:${k}`;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const p = fetchPage(answerId, filter, summary, k)
      .then((rows) => {
        if (gen === generation) set({ window: holdPage(get().window, k, rows, MAX_PAGES, keep) });
      })
      .catch((e: unknown) => {
        if (gen === generation) set({ error: String(e instanceof Error ? e.message : e) });
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, p);
    return p;
  };

  return {
    answerId: null,
    filter: 'all',
    summary: null,
    window: emptyWindow(CARD_PAGE),
    error: null,

    load: async (answerId, filter) => {
      const gen = ++generation;
      set({ answerId, filter, summary: null, window: emptyWindow(CARD_PAGE), error: null });
      if (answerId === null) return;
      try {
        // The first page starts at no cursor: it need not wait for the shape.
        const [summary, first] = await Promise.all([
          client.call('answers.cardsSummary', { id: answerId, filter, pageSize: CARD_PAGE }),
          client.call('answers.cards', { id: answerId, filter, limit: CARD_PAGE }),
        ]);
        if (gen !== generation) return;
        const rows = first.rows.map((r) => r.citation);
        set({ summary, window: rows.length > 0 ? holdPage(emptyWindow<CitationDetail>(CARD_PAGE), 0, rows, MAX_PAGES) : emptyWindow(CARD_PAGE) });
      } catch (e) {
        if (gen === generation) set({ error: String(e instanceof Error ? e.message : e) });
      }
    },

    begin: (answerId, filter) => {
      const gen = ++generation;
      set({ answerId, filter, summary: null, window: emptyWindow(CARD_PAGE), error: null });
      return (summary, first) => {
        if (gen === generation) set({ summary, window: first.length > 0 ? holdPage(emptyWindow<CitationDetail>(CARD_PAGE), 0, first, MAX_PAGES) : emptyWindow(CARD_PAGE) });
      };
    },

    refill: async (answerId, filter, summary, first) => {
      // Another answer or filter asked for meanwhile: its own load fills the list.
      if (get().answerId !== answerId || get().filter !== filter) return;
      const gen = ++generation;
      try {
        const held = [...get().window.pages.keys()].filter((k) => k > 0 && k < summary.pageStarts.length);
        const pages = await Promise.all(held.map(async (k) => [k, await fetchPage(answerId, filter, summary, k)] as const));
        if (gen !== generation) return;
        const start = first.length > 0 ? holdPage(emptyWindow<CitationDetail>(CARD_PAGE), 0, first, MAX_PAGES) : emptyWindow<CitationDetail>(CARD_PAGE);
        set({ summary, window: pages.reduce((w, [k, rows]) => holdPage(w, k, rows, MAX_PAGES), start) });
      } catch (e) {
        if (gen === generation) set({ error: String(e instanceof Error ? e.message : e) });
      }
    },

    ensureRows: async (first, last) => {
      const summary = get().summary;
      if (!summary) return;
      const needed = pagesCovering(summary.pageSize, Math.max(0, first), last).filter((k) => k < summary.pageStarts.length);
      await Promise.all(needed.map((k) => hold(k, needed)));
    },

    held: (id) => heldRows(get().window).find((c) => c.id === id),

    cardOf: async (id) => {
      const now = get().held(id);
      if (now) return now;
      const summary = get().summary;
      const i = summary ? summary.ids.indexOf(id) : -1;
      if (summary && i >= 0) {
        await hold(Math.floor(i / summary.pageSize), []);
        return get().held(id) ?? null;
      }
      // Not shown by the filter (a marker of the text clicked): its card alone, by the cursor before it.
      const answerId = get().answerId;
      if (answerId === null) return null;
      const all = await client.call('answers.cardsSummary', { id: answerId, filter: 'all', pageSize: 1 });
      const j = all.ids.indexOf(id);
      const after = j >= 0 ? all.pageStarts[j] : undefined;
      if (j < 0 || after === undefined) return null;
      const page = await client.call('answers.cards', { id: answerId, filter: 'all', limit: 1, ...(after ? { after } : {}) });
      return page.rows[0]?.citation ?? null;
    },

    patch: (id, change) => {
      const w = get().window;
      if (!heldRows(w).some((c) => c.id === id)) return;
      set({ window: { pageSize: w.pageSize, pages: new Map([...w.pages].map(([k, rows]) => [k, rows.map((c) => (c.id === id ? change(c) : c))])) } });
    },
  };
});
