import { create } from 'zustand';
import type { FolderSearchResult, RelinkManyResult } from '../../../../shared/contract/schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import { useLibrary } from '../library/library-store.ts';
import { useRelink } from './relink-store.ts';

/** One missing source and where the folder search found its bytes (the path the analyst picked). */
export interface FoundSource {
  id: number;
  fileName: string;
  matches: string[];
  chosen: string | null;
}

interface FindMissingState {
  /** The sources looked for: every missing or modified one when the dialog opened. */
  ids: number[] | null;
  busy: 'search' | 'relink' | null;
  error: string | null;
  search: FolderSearchResult | null;
  found: FoundSource[];
  relinked: RelinkManyResult | null;
  open(ids: number[]): void;
  close(): void;
  searchIn(dir: string): Promise<void>;
  choose(id: number, path: string): void;
  relinkFound(): Promise<void>;
}

const message = (e: unknown) => (e instanceof ClientError ? e.message : String(e));

/** The library-wide "Find missing files in a folder…": one folder walk for every missing source. */
export const useFindMissing = create<FindMissingState>((set, get) => ({
  ids: null,
  busy: null,
  error: null,
  search: null,
  found: [],
  relinked: null,
  open: (ids) => set({ ids, busy: null, error: null, search: null, found: [], relinked: null }),
  close: () => set({ ids: null, search: null, found: [], relinked: null, error: null }),
  searchIn: async (dir) => {
    const ids = get().ids;
    if (!ids || ids.length === 0) return;
    set({ busy: 'search', error: null, search: null, found: [], relinked: null });
    try {
      const search = await client.call('sources.searchFolder', { ids, dir });
      const found = search.results
        .filter((r) => r.matches.length > 0)
        // One match is the answer; several copies of the same bytes wait for the analyst to pick one.
        .map((r) => ({ id: r.id, fileName: r.fileName, matches: r.matches, chosen: r.matches.length === 1 ? (r.matches[0] ?? null) : null }));
      set({ search, found });
    } catch (e) {
      set({ error: message(e) });
    } finally {
      set({ busy: null });
    }
  },
  choose: (id, path) => set({ found: get().found.map((f) => (f.id === id ? { ...f, chosen: path } : f)) }),
  relinkFound: async () => {
    const items = get().found.flatMap((f) => (f.chosen ? [{ id: f.id, path: f.chosen }] : []));
    if (items.length === 0) return;
    set({ busy: 'relink', error: null });
    try {
      set({ relinked: await client.call('sources.relinkMany', { items }) });
      await useRelink.getState().check();
      await useLibrary.getState().refresh();
    } catch (e) {
      set({ error: message(e) });
    } finally {
      set({ busy: null });
    }
  },
}));
