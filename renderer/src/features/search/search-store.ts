import { create } from 'zustand';
import type { SearchHit, SourceKind } from '../../../../shared/contract/schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import { useViewer } from '../viewer/viewer-store.ts';

/** Most hits one search lists: more would not be read; a narrower query or a filter finds the rest. */
export const HIT_LIMIT = 200;

export interface SearchFilters {
  /** One source, or every source (null). */
  sourceId: number | null;
  /** One kind of document, or every kind (null). */
  kind: SourceKind | null;
}

interface SearchState {
  query: string;
  filters: SearchFilters;
  hits: SearchHit[];
  /** The query the hits are for (the box may have changed since). */
  searched: string | null;
  busy: boolean;
  error: string | null;
  /** The hit last opened in the viewer. */
  openedSegment: number | null;
  setQuery(query: string): void;
  setFilters(patch: Partial<SearchFilters>): void;
  run(): Promise<void>;
  open(hit: SearchHit): void;
}

/** Only the newest search's answer is shown: an older one arriving late is dropped. */
let generation = 0;

/** Opens a hit in the viewer at its place, with the matched words highlighted. */
export function openHit(hit: SearchHit): void {
  const kind = hit.kind ?? 'pdf';
  const m = hit.match ?? null;
  const viewer = useViewer.getState();
  if (kind === 'pdf') {
    const page = hit.locator.page ?? 1;
    viewer.open(hit.sourceId, 'pdf', page, m ? { page, start: m.start, end: m.end } : null);
    return;
  }
  // Blocks (DOCX, HTML) are numbered by paragraph, text by line; offsets count from the segment's start.
  const at = kind === 'docx' || kind === 'html' ? hit.locator.paragraph : hit.locator.line;
  if (at === undefined) viewer.open(hit.sourceId, kind);
  else viewer.openAt(hit.sourceId, kind, { at, ...(m ? { range: m } : {}) });
}

export const useSearch = create<SearchState>((set, get) => ({
  query: '',
  filters: { sourceId: null, kind: null },
  hits: [],
  searched: null,
  busy: false,
  error: null,
  openedSegment: null,
  setQuery: (query) => set({ query }),
  setFilters: (patch) => set({ filters: { ...get().filters, ...patch } }),
  run: async () => {
    const query = get().query.trim();
    const mine = ++generation;
    if (query === '') {
      set({ hits: [], searched: null, busy: false, error: null });
      return;
    }
    const { sourceId, kind } = get().filters;
    set({ busy: true, error: null });
    try {
      const { hits } = await client.call('search.query', {
        query,
        limit: HIT_LIMIT,
        snippets: true,
        ...(sourceId !== null ? { sourceIds: [sourceId] } : {}),
        ...(kind !== null ? { kinds: [kind] } : {}),
      });
      if (mine === generation) set({ hits, searched: query, busy: false });
    } catch (e) {
      if (mine === generation) set({ busy: false, hits: [], searched: query, error: e instanceof ClientError ? e.message : String(e) });
    }
  },
  open: (hit) => {
    set({ openedSegment: hit.segmentId });
    openHit(hit);
  },
}));
