import { create } from 'zustand';
import type { IngestResult, SkippedEntry, SourceSummary } from '../../../../shared/contract/schemas.ts';
import type { IngestProgress, IngestWalk } from '../../../../shared/contract/events.ts';
import { client, ClientError } from '../../api/client.ts';

interface LibraryState {
  sources: SourceSummary[];
  loading: boolean;
  error: string | null;
  ingesting: boolean;
  progress: IngestProgress | null;
  /** The running batch's folder walk: how far it has got. */
  walk: Pick<IngestWalk, 'entries' | 'files' | 'done'> | null;
  /** What the running batch skipped so far (the report lists the whole batch's when it ends). */
  skipped: SkippedEntry[];
  /** The running batch, from its first event, so it can be cancelled while the walk is still going. */
  batchId: string | null;
  lastIngest: IngestResult | null;
  refresh(): Promise<void>;
  ingest(paths: string[], password?: string, followSymlinks?: boolean): Promise<void>;
  /** Browser mode: dropped documents sent to the host one by one, kept in the workspace's inbox, ingested. */
  upload(files: File[]): Promise<void>;
  /** The upload under way, for the progress line. */
  uploading: { name: string; index: number; count: number } | null;
  setProgress(progress: IngestProgress | null): void;
  onWalk(walk: IngestWalk): void;
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
  walk: null,
  skipped: [],
  batchId: null,
  lastIngest: null,
  refresh: async () => {
    set({ loading: true, error: null });
    try {
      set({ sources: await client.call('sources.list', {}), loading: false });
    } catch (e) {
      set({ loading: false, error: message(e) });
    }
  },
  ingest: async (paths, password, followSymlinks) => {
    set({ ingesting: true, error: null, lastIngest: null, walk: null, skipped: [], batchId: null });
    try {
      const result = await client.call('sources.ingest', { paths, ...(password ? { password } : {}), ...(followSymlinks ? { followSymlinks } : {}) });
      set({ lastIngest: result });
      // New files are checked at once, so the list shows their health rather than 'not checked'.
      const ids = result.files.flatMap((f) => (f.ok ? [f.sourceId] : []));
      if (ids.length > 0) await client.call('sources.check', { ids }).catch(() => undefined);
      await get().refresh();
    } catch (e) {
      set({ error: message(e) });
    } finally {
      set({ ingesting: false, progress: null, walk: null, skipped: [], batchId: null });
    }
  },
  uploading: null,
  upload: async (files) => {
    const send = client.uploadFile;
    if (!send || files.length === 0) return;
    set({ ingesting: true, error: null, lastIngest: null });
    const combined: IngestResult = { batchId: '', files: [], skipped: [], cancelled: false };
    try {
      for (const [i, file] of files.entries()) {
        set({ uploading: { name: file.name, index: i + 1, count: files.length } });
        try {
          const result = await send(file);
          combined.batchId = result.batchId;
          // The inbox path is the workspace's own; the analyst knows the file by its name.
          combined.files.push(...result.files.map((f) => ({ ...f, path: file.name })));
        } catch (e) {
          const error = e instanceof ClientError ? { code: e.code, message: e.message } : { code: 'INTERNAL' as const, message: String(e) };
          combined.files.push({ ok: false, path: file.name, error });
        }
        set({ lastIngest: { ...combined, files: [...combined.files] } });
      }
      const ids = combined.files.flatMap((f) => (f.ok ? [f.sourceId] : []));
      if (ids.length > 0) await client.call('sources.check', { ids }).catch(() => undefined);
      await get().refresh();
    } finally {
      set({ ingesting: false, uploading: null });
    }
  },
  setProgress: (progress) => set(progress ? { progress, batchId: progress.batchId } : { progress }),
  onWalk: (walk) => {
    if (!get().ingesting) return;
    const { entries, files, done } = walk;
    set({ walk: { entries, files, done }, batchId: walk.batchId, skipped: walk.skipped.length ? [...get().skipped, ...walk.skipped] : get().skipped });
  },
  cancel: async () => {
    const batchId = get().batchId ?? get().progress?.batchId;
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
