import { create } from 'zustand';
import type { IngestResult, SourceSummary } from '../../../../shared/contract/schemas.ts';
import type { IngestProgress } from '../../../../shared/contract/events.ts';
import { client, ClientError } from '../../api/client.ts';

interface LibraryState {
  sources: SourceSummary[];
  loading: boolean;
  error: string | null;
  ingesting: boolean;
  progress: IngestProgress | null;
  lastIngest: IngestResult | null;
  refresh(): Promise<void>;
  ingest(paths: string[], password?: string): Promise<void>;
  setProgress(progress: IngestProgress | null): void;
  /** Stops the running batch: files already stored stay, the rest are not ingested. */
  cancel(): Promise<void>;
  /** Marks a source restricted (never sent to a model endpoint), or lifts it. */
  setRestricted(id: number, restricted: boolean): Promise<void>;
}

function message(e: unknown): string {
  return e instanceof ClientError ? `${e.message} (${e.code})` : String(e);
}

export const useLibrary = create<LibraryState>((set, get) => ({
  sources: [],
  loading: false,
  error: null,
  ingesting: false,
  progress: null,
  lastIngest: null,
  refresh: async () => {
    set({ loading: true, error: null });
    try {
      set({ sources: await client.call('sources.list', {}), loading: false });
    } catch (e) {
      set({ loading: false, error: message(e) });
    }
  },
  ingest: async (paths, password) => {
    set({ ingesting: true, error: null, lastIngest: null });
    try {
      const result = await client.call('sources.ingest', password ? { paths, password } : { paths });
      set({ lastIngest: result });
      // New files are checked at once, so the list shows their health rather than 'not checked'.
      const ids = result.files.flatMap((f) => (f.ok ? [f.sourceId] : []));
      if (ids.length > 0) await client.call('sources.check', { ids }).catch(() => undefined);
      await get().refresh();
    } catch (e) {
      set({ error: message(e) });
    } finally {
      set({ ingesting: false, progress: null });
    }
  },
  setProgress: (progress) => set({ progress }),
  cancel: async () => {
    const batchId = get().progress?.batchId;
    if (!batchId) return;
    try {
      await client.call('sources.cancelIngest', { batchId });
    } catch (e) {
      set({ error: message(e) });
    }
  },
  setRestricted: async (id, restricted) => {
    set({ error: null });
    try {
      const result = await client.call('sources.setRestricted', { ids: [id], restricted });
      const now = new Map(result.sources.map((s) => [s.id, s]));
      set({ sources: get().sources.map((s) => now.get(s.id) ?? s) });
    } catch (e) {
      set({ error: message(e) });
    }
  },
}));
