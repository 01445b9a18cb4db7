import { create } from 'zustand';
import type { FolderSearchResult, Health, RelinkManyResult, RelinkResult, SourceHealth } from '../../../../shared/contract/schemas.ts';
import type { ErrorCode } from '../../../../shared/contract/errors.ts';
import { client, ClientError } from '../../api/client.ts';
import { useLibrary } from '../library/library-store.ts';

/** The source the dialog is about, as the library or a check last saw it. */
export interface RelinkTarget {
  id: number;
  fileName: string;
  path: string | null;
  health: Health;
  citations: number | null;
  detail: string | null;
  /** Why the dialog opened by itself (e.g. the viewer could not open the file). */
  reason: string | null;
}

export interface RelinkError {
  code: ErrorCode | 'UNKNOWN';
  message: string;
  /** The path that was refused, so the dialog can offer to add it as a new source. */
  path: string | null;
}

interface RelinkState {
  checking: boolean;
  checkError: string | null;
  /** The last check's result per source id: detail and citation counts for the table. */
  byId: Record<number, SourceHealth>;
  target: RelinkTarget | null;
  busy: 'relink' | 'search' | 'relinkAll' | null;
  error: RelinkError | null;
  search: FolderSearchResult | null;
  relinked: RelinkResult | null;
  relinkedAll: RelinkManyResult | null;
  check(): Promise<void>;
  open(target: Omit<RelinkTarget, 'citations' | 'detail' | 'reason'>, reason?: string): void;
  openIfMissing(sourceId: number, reason: string): Promise<void>;
  close(): void;
  relinkTo(path: string): Promise<void>;
  searchIn(dir: string): Promise<void>;
  relinkAll(): Promise<void>;
}

function toError(e: unknown, path: string | null = null): RelinkError {
  return e instanceof ClientError ? { code: e.code, message: e.message, path } : { code: 'UNKNOWN', message: String(e), path };
}

const CLEAN = { busy: null, error: null, search: null, relinked: null, relinkedAll: null } as const;

export const useRelink = create<RelinkState>((set, get) => ({
  checking: false,
  checkError: null,
  byId: {},
  target: null,
  ...CLEAN,

  check: async () => {
    set({ checking: true, checkError: null });
    try {
      const report = await client.call('sources.check', {});
      set({ byId: Object.fromEntries(report.sources.map((s) => [s.id, s])) });
      await useLibrary.getState().refresh();
    } catch (e) {
      set({ checkError: toError(e).message });
    } finally {
      set({ checking: false });
    }
  },

  open: (target, reason) => {
    const known = get().byId[target.id];
    set({
      ...CLEAN,
      target: { ...target, citations: known?.citations ?? null, detail: known?.detail ?? null, reason: reason ?? null },
    });
  },

  openIfMissing: async (sourceId, reason) => {
    try {
      const report = await client.call('sources.check', { ids: [sourceId] });
      const s = report.sources[0];
      set({ byId: { ...get().byId, ...(s ? { [s.id]: s } : {}) } });
      await useLibrary.getState().refresh();
      if (s && s.health !== 'ok') {
        set({ ...CLEAN, target: { id: s.id, fileName: s.fileName, path: s.path, health: s.health, citations: s.citations, detail: s.detail, reason } });
      }
    } catch {
      // The viewer already shows its own error; the dialog only opens when the check says why.
    }
  },

  close: () => set({ target: null, ...CLEAN }),

  relinkTo: async (path) => {
    const target = get().target;
    if (!target) return;
    set({ busy: 'relink', error: null, relinkedAll: null });
    try {
      // A file picked from a folder search: the other missing files are looked for in that whole tree.
      const search = get().search;
      const searchedDir = search?.results.some((r) => r.matches.includes(path)) ? search.dir : undefined;
      const result = await client.call('sources.relink', { id: target.id, path, ...(searchedDir ? { searchedDir } : {}) });
      const byId = { ...get().byId };
      const prior = byId[target.id];
      byId[target.id] = { id: target.id, fileName: target.fileName, path: result.path, health: 'ok', citations: prior?.citations ?? target.citations ?? 0, detail: 'relinked' };
      set({ relinked: result, search: null, byId, target: { ...target, health: 'ok', path: result.path } });
      await useLibrary.getState().refresh();
    } catch (e) {
      set({ error: toError(e, path) });
    } finally {
      set({ busy: null });
    }
  },

  searchIn: async (dir) => {
    const target = get().target;
    if (!target) return;
    set({ busy: 'search', error: null, search: null });
    try {
      set({ search: await client.call('sources.searchFolder', { ids: [target.id], dir }) });
    } catch (e) {
      set({ error: toError(e) });
    } finally {
      set({ busy: null });
    }
  },

  relinkAll: async () => {
    const suggestions = get().relinked?.suggestions ?? [];
    if (suggestions.length === 0) return;
    set({ busy: 'relinkAll', error: null });
    try {
      const result = await client.call('sources.relinkMany', { items: suggestions.map((s) => ({ id: s.id, path: s.path })) });
      const byId = { ...get().byId };
      for (const r of result.results) {
        const prior = byId[r.id];
        if (r.ok && prior) byId[r.id] = { ...prior, path: r.path, health: 'ok', detail: 'relinked' };
      }
      set({ relinkedAll: result, byId });
      await useLibrary.getState().refresh();
    } catch (e) {
      set({ error: toError(e) });
    } finally {
      set({ busy: null });
    }
  },
}));
