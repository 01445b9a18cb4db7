import { create } from 'zustand';
import type { FindResult } from '../../../../shared/contract/reader-schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import { useViewer } from './viewer-store.ts';
import { DEFAULT_ZOOM, type Size, type Zoom } from './zoom.ts';

export type SidebarTab = 'thumbnails' | 'outline' | 'find';
export type TextStatus = 'ok' | 'mismatch' | 'error';

/** Where the reader is going: the page to show and, once its text layer is drawn, the mark to centre. */
export interface Pending {
  page: number;
  /** What the toolbar says meanwhile ("Opening page 2,301…"). */
  message: string;
  /** A stored-text offset on `page` whose mark is scrolled to the middle of the view. */
  revealAt?: number;
}

interface FindState {
  query: string;
  status: 'idle' | 'searching' | 'done' | 'error';
  result: FindResult | null;
  /** The hit shown now, an index into result.hits, or -1. */
  current: number;
  error: string | null;
}

interface ReaderState {
  sourceId: number | null;
  zoom: Zoom;
  sidebar: SidebarTab | null;
  find: FindState;
  pending: Pending | null;
  /** Each rendered page's text-layer check, by page number. */
  statuses: Record<number, TextStatus>;
  /** Page sizes at scale 1 as pages load; pages not yet loaded are taken to be the first page's size. */
  sizes: Record<number, Size>;
  /** The stored page labels, page 1 first (null where a page has none). */
  labels: (string | null)[];
  /** What the next navigation is for: a find hit or outline entry to show, not the quote. */
  intent: { page: number; revealAt?: number } | null;
  reset(sourceId: number): void;
  /** Goes to a page, centring the mark at `revealAt` (a find hit) when its text layer is drawn. */
  navigate(page: number, revealAt?: number): void;
  takeIntent(): { page: number; revealAt?: number } | null;
  setZoom(zoom: Zoom): void;
  setSidebar(tab: SidebarTab | null): void;
  setPending(p: Pending | null): void;
  /** A page's text layer is drawn (or could not be): the wait for it, if any, is over. */
  pageReady(page: number, status: TextStatus): void;
  /** A page's box left the view (its drawing is gone): its check is forgotten until it is drawn again. */
  pageGone(page: number): void;
  setSize(page: number, size: Size): void;
  setLabels(labels: (string | null)[]): void;
  runFind(query: string): Promise<void>;
  setFindCurrent(i: number): void;
  clearFind(): void;
}

const NO_FIND: FindState = { query: '', status: 'idle', result: null, current: -1, error: null };

export const useReader = create<ReaderState>((set, get) => ({
  sourceId: null,
  zoom: DEFAULT_ZOOM,
  sidebar: null,
  find: NO_FIND,
  pending: null,
  statuses: {},
  sizes: {},
  labels: [],
  intent: null,
  reset: (sourceId) => {
    if (get().sourceId === sourceId) return;
    set({ sourceId, find: NO_FIND, pending: null, statuses: {}, sizes: {}, labels: [], intent: null });
  },
  navigate: (page, revealAt) => {
    set({ intent: revealAt === undefined ? { page } : { page, revealAt } });
    useViewer.getState().goTo(page);
  },
  takeIntent: () => {
    const intent = get().intent;
    if (intent) set({ intent: null });
    return intent;
  },
  setZoom: (zoom) => set({ zoom }),
  setSidebar: (sidebar) => set({ sidebar }),
  setPending: (pending) => set({ pending }),
  pageReady: (page, status) => {
    const { pending, statuses } = get();
    // A page drawn ends the wait for it; so does one whose text cannot be marked (there is nothing to centre).
    const over = pending?.page === page && (pending.revealAt === undefined || status !== 'ok');
    set({ statuses: statuses[page] === status ? statuses : { ...statuses, [page]: status }, ...(over ? { pending: null } : {}) });
  },
  pageGone: (page) => {
    const { statuses } = get();
    if (statuses[page] === undefined) return;
    const rest = { ...statuses };
    delete rest[page];
    set({ statuses: rest });
  },
  setSize: (page, size) => {
    const old = get().sizes[page] ?? (page !== 1 ? get().sizes[1] : undefined);
    // The same size as assumed (the first page's) changes no box: nothing to lay out again.
    if (old && old.width === size.width && old.height === size.height) return;
    set({ sizes: { ...get().sizes, [page]: size } });
  },
  setLabels: (labels) => set({ labels }),
  runFind: async (query) => {
    const sourceId = get().sourceId;
    if (sourceId === null) return;
    const q = query.trim();
    if (!q) {
      set({ find: NO_FIND });
      return;
    }
    set({ find: { query: q, status: 'searching', result: null, current: -1, error: null }, sidebar: 'find' });
    try {
      const result = await client.call('sources.find', { id: sourceId, query: q });
      if (get().find.query !== q || get().sourceId !== sourceId) return;
      set({ find: { query: q, status: 'done', result, current: -1, error: null } });
    } catch (e) {
      if (get().find.query !== q) return;
      set({ find: { query: q, status: 'error', result: null, current: -1, error: e instanceof ClientError ? e.message : String(e) } });
    }
  },
  setFindCurrent: (current) => set({ find: { ...get().find, current } }),
  clearFind: () => set({ find: NO_FIND }),
}));
