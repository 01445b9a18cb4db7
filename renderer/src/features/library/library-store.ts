import { create } from 'zustand';
import type { IngestResult, SkippedEntry, SourceSummary } from '../../../../shared/contract/schemas.ts';
import type { IngestProgress, IngestWalk } from '../../../../shared/contract/events.ts';
import type { Health } from '../../../../shared/contract/schemas.ts';
import type { SourceFilter, SourceListSummary, SourceSort, SortDirection } from '../../../../shared/contract/list-schemas.ts';
import type { ErrorCode } from '../../../../shared/contract/errors.ts';
import { client, ClientError } from '../../api/client.ts';
import { takeEarlyCall } from '../../api/early-calls.ts';
import { emptyWindow, heldRows, holdPage, pagesCovering, type PageWindow } from '../../app/page-window.ts';

/** Rows per page, and how many pages the renderer holds at most (issue 16: never the whole library). */
export const LIBRARY_PAGE = 100;
const MAX_PAGES = 6;
/** The library as the first screen lists it (first-page.ts asks for its first page with this query). */
const FIRST_QUERY: LibraryQuery = { filter: {}, sort: 'added', dir: 'desc' };

export interface LibraryQuery {
  filter: SourceFilter;
  sort: SourceSort;
  dir: SortDirection;
}

interface LibraryState {
  /** The rows held now (a few pages around what is on screen), in list order. */
  sources: SourceSummary[];
  /** Sources in the workspace, whatever the filter. */
  count: number;
  query: LibraryQuery;
  /** Counts and page starts of the filtered, sorted library. */
  summary: SourceListSummary | null;
  /** Rows known before the summary arrives (its first page, drawn first): the list's length meanwhile. */
  firstRows: number;
  window: PageWindow<SourceSummary>;
  /** Filter or sort anew: the counts and the first page are fetched again. */
  setQuery(patch: Partial<LibraryQuery>): Promise<void>;
  /** Fetches the pages covering list positions first..last that are not held yet. */
  ensureRows(first: number, last: number): Promise<void>;
  /** A source's last known health, for sources not on screen too (missing and changed ones are listed by the summary). */
  healthOf(id: number): Health;
  loading: boolean;
  error: LibraryError | null;
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

/** What the library's error line shows: the sentence, and the code for its tooltip. */
export interface LibraryError {
  text: string;
  code?: ErrorCode;
}

function message(e: unknown): LibraryError {
  return e instanceof ClientError ? { text: e.message, code: e.code } : { text: String(e) };
}

/** Each new query or refresh; a page arriving for an older one is dropped. */
let generation = 0;
const inFlight = new Set<string>();
/** Whether a summary has come once: only the first screen draws its first page before it. */
let summarised = false;

/** A query's first page (no cursor), asked for before its summary. */
async function firstPage(query: LibraryQuery): Promise<SourceSummary[]> {
  const page = await client.call('sources.page', { ...query, limit: LIBRARY_PAGE });
  return page.rows.map((r) => r.source);
}

async function fetchPage(query: LibraryQuery, summary: SourceListSummary, k: number): Promise<SourceSummary[]> {
  const after = summary.pageStarts[k];
  const page = await client.call('sources.page', { ...query, limit: summary.pageSize, ...(after ? { after } : {}) });
  return page.rows.map((r) => r.source);
}

export const useLibrary = create<LibraryState>((set, get) => ({
  sources: [],
  count: 0,
  query: FIRST_QUERY,
  summary: null,
  firstRows: 0,
  window: emptyWindow(LIBRARY_PAGE),
  setQuery: async (patch) => {
    // The old summary's page starts are keys of the old sort: nothing is fetched by them meanwhile.
    generation += 1;
    set({ query: { ...get().query, ...patch }, summary: null, firstRows: 0, window: emptyWindow(LIBRARY_PAGE), sources: [] });
    await get().refresh();
  },
  ensureRows: async (first, last) => {
    const { summary, query } = get();
    if (!summary) return;
    const gen = generation;
    const needed = pagesCovering(summary.pageSize, Math.max(0, first), last).filter((k) => k < summary.pageStarts.length);
    await Promise.all(
      needed
        .filter((k) => !get().window.pages.has(k) && !inFlight.has(`${gen}:${k}`))
        .map(async (k) => {
          inFlight.add(`${gen}:${k}`);
          try {
            const rows = await fetchPage(query, summary, k);
            if (gen !== generation) return;
            const window = holdPage(get().window, k, rows, MAX_PAGES, needed);
            set({ window, sources: heldRows(window) });
          } catch (e) {
            if (gen === generation) set({ error: message(e) });
          } finally {
            inFlight.delete(`${gen}:${k}`);
          }
        }),
    );
  },
  healthOf: (id) => {
    const held = get().sources.find((s) => s.id === id);
    if (held) return held.health;
    const summary = get().summary;
    const listed = summary?.attention.find((a) => a.id === id);
    if (listed) return listed.health;
    return summary && summary.health.unchecked === 0 ? 'ok' : 'unchecked';
  },
  loading: false,
  error: null,
  ingesting: false,
  progress: null,
  walk: null,
  skipped: [],
  batchId: null,
  lastIngest: null,
  refresh: async () => {
    const gen = ++generation;
    set({ loading: true, error: null });
    try {
      const query = get().query;
      // The first screen: the first page starts at no cursor, so it is asked for before the summary,
      // whose counts and page starts take a pass over the whole library, and drawn as soon as it comes
      // (issue 16: the first screen waits only for an indexed, bounded query). A new filter or sort
      // waits for its summary, so the keyboard never moves through a list of unknown length. The page's
      // first script (first-page.ts) may have asked for that page already, while this code loaded.
      const early = query === FIRST_QUERY ? earlyFirstPage : null;
      earlyFirstPage = null;
      const first =
        get().summary === null && !summarised
          ? // Asked before the summary is (the host answers in turn), unless asked already.
            (early ? early.then((rows) => rows ?? firstPage(query)) : firstPage(query)).then((rows) => {
              if (gen === generation && get().summary === null && get().sources !== rows) {
                const window = holdPage(emptyWindow<SourceSummary>(LIBRARY_PAGE), 0, rows, MAX_PAGES);
                set({ window, sources: rows, firstRows: rows.length });
              }
              return rows;
            })
          : null;
      const summary = await client.call('sources.listSummary', { ...query, pageSize: LIBRARY_PAGE });
      summarised = true;
      if (gen !== generation) return;
      const firstRows = first ? await first : null;
      if (gen !== generation) return;
      // The pages held are fetched again under the new starts (rows may have moved), page 0 at least;
      // a first page fetched just now for this same query is kept.
      const held = [...get().window.pages.keys()].filter((k) => k < summary.pageStarts.length);
      const wanted = (held.length > 0 ? held : summary.pageStarts.length > 0 ? [0] : []).filter((k) => !(k === 0 && firstRows));
      const pages: (readonly [number, SourceSummary[]])[] = await Promise.all(wanted.map(async (k) => [k, await fetchPage(query, summary, k)] as const));
      if (firstRows && summary.pageStarts.length > 0) pages.unshift([0, firstRows]);
      if (gen !== generation) return;
      const window = pages.reduce((w, [k, rows]) => holdPage(w, k, rows, MAX_PAGES), emptyWindow<SourceSummary>(LIBRARY_PAGE));
      set({ summary, window, sources: heldRows(window), count: summary.all, loading: false });
    } catch (e) {
      if (gen === generation) set({ loading: false, error: message(e) });
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
      const w = get().window;
      const window = { pageSize: w.pageSize, pages: new Map([...w.pages].map(([k, rows]) => [k, rows.map((s) => now.get(s.id) ?? s)])) };
      set({ window, sources: heldRows(window) });
      // The restricted count (and a restricted filter) follow.
      await get().refresh();
    } catch (e) {
      set({ error: message(e) });
    }
  },
}));

/**
 * The first page as the page's first script asked for it (first-page.ts), while this code loaded:
 * drawn as soon as it comes if the library's first refresh has not begun (then often before React's
 * first render, which then lays out the rows at once), else taken by that refresh. Null once taken.
 */
let earlyFirstPage: Promise<SourceSummary[] | null> | null =
  takeEarlyCall('sources.page', { ...FIRST_QUERY, limit: LIBRARY_PAGE })?.then((page) => page?.rows.map((r) => r.source) ?? null) ?? null;
void earlyFirstPage?.then((rows) => {
  if (!rows || generation !== 0) return;
  const window = holdPage(emptyWindow<SourceSummary>(LIBRARY_PAGE), 0, rows, MAX_PAGES);
  useLibrary.setState({ window, sources: rows, firstRows: rows.length });
});
