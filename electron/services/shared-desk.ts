/**
 * The app on a shared workspace (issue 13): `--database postgres://…` or EVIDESK_DATABASE_URL
 * opens the desk (the host's browser mode, the Electron shell) on the member the URL names. It
 * answers through the shared services' dispatcher, so every operation whose area is not on the
 * shared store yet is refused as SHARED_DATABASE_UNSUPPORTED (a sentence in the page) and none runs
 * on a local database instead; no local SQLite database is opened. Teammates' writes reach the page
 * live (shared-live.ts); source bytes come from the member's own file or the shared snapshot.
 */
import type { Dispatch, Handlers } from '../../shared/contract/dispatcher.ts';
import { AppError } from '../../shared/contract/errors.ts';
import { EventBus } from './events.ts';
import type { IngestService } from './ingest/ingest-service.ts';
import type { LaunchExtractor } from './ingest/extractor-process.ts';
import { WorkerPool } from './ingest/worker-pool.ts';
import { SourceContentService } from './sources/source-content.ts';
import type { SessionFeed } from './citations/session-feed.ts';
import { sharedDeskHandlers, sharedPlaceOf, type SharedPlace } from './shared-desk-handlers.ts';
import { SharedLive } from './shared-live.ts';
import { createSharedServices, type SharedServices } from './shared-services.ts';
import { SharedSourceFiles } from './sources/shared-source-files.ts';
import type { ServableFile } from './sources/source-files.ts';
import { isPostgresUrl } from './store/open-store.ts';
import { PgStore } from './store/postgres/pg-store.ts';
import { requireSharedWorkspace } from './store/postgres/pg-workspace-present.ts';
import { DEFAULT_WORKSPACE_SETTINGS, type WorkspaceInfo } from '../../shared/contract/schemas.ts';
import { pgSources } from './store/postgres/pg-sources.ts';
import { APP_VERSION } from './create-services.ts';
import { AppExport } from './export/app-export.ts';
import { ExportService } from './export/export-service.ts';
import { sharedReportReads } from './export/shared-report-reads.ts';
import type { Platform } from './platform.ts';

/** A desk opened without a platform (tests, the command line's mode): a report is written to a typed path only. */
function noDialogs(mode: WorkspaceInfo['mode']): Platform {
  const none = (what: string) => () => Promise.reject(new AppError('DIALOG_UNAVAILABLE', `${what} is not available here: type the path instead.`));
  return { mode, chooseFiles: none('A file dialog'), revealInFolder: none('Showing a file in its folder') };
}

/**
 * What a transport of the desk (the host, the shell) needs of the services: the full local set
 * (createServices) or a shared workspace's (below).
 */
export interface DeskServices {
  readonly workspaceDir: string;
  readonly dispatch: Dispatch;
  readonly events: EventBus;
  readonly sourceFiles: { resolve(sourceId: number): Promise<ServableFile> };
  readonly handlers: Pick<Handlers, 'workspace.settings'>;
  readonly ingest: Pick<IngestService, 'ingest'>;
  /** What tells the page of rows other processes write (agents' citations, teammates' rows); started by the transport. */
  readonly citations: { readonly feed: Pick<SessionFeed, 'start'> };
}

export interface SharedDesk extends DeskServices {
  readonly place: SharedPlace;
  readonly shared: SharedServices;
  /** Checks this member's paths of every source in the background (as the local desk does at open). */
  checkHealth(): Promise<unknown>;
  close(): Promise<void>;
}

/** `--database URL` (or `--database=URL`) wins, then EVIDESK_DATABASE_URL; none means the local workspace. */
export function databaseFromArgv(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): { url: string; from: '--database' | 'EVIDESK_DATABASE_URL' } | undefined {
  const i = argv.indexOf('--database');
  const flag = i >= 0 ? (argv[i + 1] ?? '') : argv.find((a) => a.startsWith('--database='))?.slice('--database='.length);
  if (flag !== undefined) {
    if (flag.trim() === '' || flag.startsWith('--')) {
      throw new AppError('INVALID_INPUT', 'Give the shared database after --database as a postgres:// URL.', { field: 'database' });
    }
    return { url: flag.trim(), from: '--database' };
  }
  const fromEnv = env.EVIDESK_DATABASE_URL?.trim();
  return fromEnv ? { url: fromEnv, from: 'EVIDESK_DATABASE_URL' } : undefined;
}

/** "Shared workspace evidesk on db.example:5432 as reviewer alice": the desk's line, for a console too. */
export function sharedPlaceLine(place: SharedPlace): string {
  return `Shared workspace ${place.database} on ${place.server} as ${place.level ?? 'member'} ${place.login}`;
}

/** Connects as the URL's member and builds the desk over it; the caller closes it. */
export interface SharedDeskOptions {
  /** Starts an extraction child (Electron's utilityProcess); a Node fork by default. */
  launch?: LaunchExtractor;
  /** Where the desk notes what it cannot tell the page (a console). */
  log?: (line: string) => void;
  /** The save dialog and reveal-in-folder of an export (the shell's, the host's); by default none. */
  platform?: Platform;
}

export async function openSharedDesk(url: string, workspaceDir: string, mode: WorkspaceInfo['mode'], options: SharedDeskOptions = {}): Promise<SharedDesk> {
  const log = options.log ?? (() => undefined);
  if (!isPostgresUrl(url)) {
    throw new AppError('INVALID_INPUT', 'The shared database must be a postgres:// URL.', { field: 'database' });
  }
  const store = await PgStore.connect(url);
  try {
    const place = sharedPlaceOf(url, store.who);
    await requireSharedWorkspace(store, `${place.server}/${place.database}`);
    const events = new EventBus();
    const live = new SharedLive(store, events, log);
    const files = new SharedSourceFiles(pgSources({ pool: store.pool, who: store.who }), (sha) => store.snapshot(sha), workspaceDir);
    // The viewer's conversions in a child of their own, as on the local desk.
    const viewPool = new WorkerPool({ ...(options.launch ? { launch: options.launch } : {}), size: 1 });
    const timeoutMs = () => DEFAULT_WORKSPACE_SETTINGS.extractionTimeoutSeconds * 1000;
    const shared = createSharedServices(store, workspaceDir, {
      events,
      more: ({ evidence, health, answers }) => {
        const content = new SourceContentService(evidence.sources, files, viewPool, timeoutMs);
        const reads = sharedReportReads({ evidence, answers, files, recordedHead: () => store.recordedHead(), login: place.login, place: `${place.server}/${place.database}` });
        // Excerpts are rendered in the viewer's child; the member's folder keeps their cache.
        const exports = new ExportService({ reads, health, appVersion: APP_VERSION, workspaceDir, events, pool: viewPool });
        const appExport = new AppExport(options.platform ?? noDialogs(mode), exports, reads);
        return sharedDeskHandlers({ evidence, content, health, files, place, mode, answers, exports, appExport });
      },
    });
    return {
      workspaceDir,
      place,
      shared,
      dispatch: shared.dispatch,
      events,
      sourceFiles: files,
      // An upload reads the file-size limit here (the defaults: settings are not shared yet).
      handlers: { 'workspace.settings': () => DEFAULT_WORKSPACE_SETTINGS },
      // A dropped file, once in the member's inbox, goes into the shared workspace as any added file.
      ingest: shared.ingest,
      citations: { feed: { start: () => live.start() } },
      checkHealth: () => shared.health.checkAll(),
      close: async () => {
        await live.close();
        await viewPool.close();
        await shared.close();
      },
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
