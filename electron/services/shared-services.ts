/**
 * The services over a shared (PostgreSQL) workspace (issue 13), as far as their areas are on the
 * shared store: search, source health (this member's paths), the audit chain, the citation
 * tools (registering a file, citing, the reads), and ingest (files extracted here, stored through the shared store's ingest area,
 * each document one transaction; the limits are the defaults, as the workspace settings are not
 * shared yet). They answer
 * through the same contract and dispatcher as createServices, so a caller gets the same shapes
 * and coded errors; every other operation is refused with SHARED_DATABASE_UNSUPPORTED, never run
 * on a local workspace instead. Nothing here opens the local SQLite database.
 */
import { HANDLER_NAMES, type HandlerName } from '../../shared/contract/contract.ts';
import { createDispatcher, type Dispatch, type Handlers } from '../../shared/contract/dispatcher.ts';
import { AppError } from '../../shared/contract/errors.ts';
import { checkData } from './audit/audit-service.ts';
import { verifySharedChain } from './audit/shared-chain-check.ts';
import { apiDefaults } from './citations/citation-tools.ts';
import { SharedCitationReads } from './citations/shared-citation-reads.ts';
import { SharedCiteService } from './citations/shared-cite.ts';
import { sharedRegisterSource } from './citations/shared-register.ts';
import { EventBus } from './events.ts';
import { HealthService } from './health/health-service.ts';
import { IngestService } from './ingest/ingest-service.ts';
import { ingestRequest } from './ingest/ingest-request.ts';
import { WorkerPool } from './ingest/worker-pool.ts';
import { BlobStore } from './store/blobs.ts';
import { ingestSettingsFrom } from './workspace/settings.ts';
import { DEFAULT_WORKSPACE_SETTINGS } from '../../shared/contract/schemas.ts';
import { SearchService } from './search/search-service.ts';
import { SHARED_ANSWER_HANDLERS, sharedAnswerHandlers, sharedAnswersService } from './verification/shared-answers.ts';
import type { AnswersService } from './verification/answers-service.ts';
import type { EvidenceStore } from './store/evidence-store.ts';
import { pgAgentCitations } from './store/postgres/pg-agent-citations.ts';
import { pgEvidenceStore } from './store/postgres/pg-evidence-store.ts';
import type { PgStore } from './store/postgres/pg-store.ts';

/** The operations that run on a shared workspace today. */
export const SHARED_HANDLERS = [
  'search.query',
  'sources.check',
  'audit.verify',
  'citations.searchSources',
  'citations.getSource',
  'citations.get',
  'citations.list',
  'citations.format',
  'citations.cite',
  'citations.registerSource',
  'sources.ingest',
  'sources.cancelIngest',
  ...SHARED_ANSWER_HANDLERS,
] as const satisfies readonly HandlerName[];

export interface SharedServices {
  /** The member's connection (the desk listens for changes and reads snapshots through it). */
  readonly store: PgStore;
  readonly evidence: EvidenceStore;
  readonly health: HealthService;
  /** Files added to the shared workspace as this member (the desk's uploads go here too). */
  readonly ingest: Pick<IngestService, 'ingest'>;
  readonly dispatch: Dispatch;
  /** Makes the cite service's copy of the shared sources' rows before a first cite (`evidesk mcp` at start). */
  warmCite(): Promise<void>;
  /** Closes the member's connections. */
  close(): Promise<void>;
}

/** The refusal for an operation (or a command) whose area is not on the shared store yet. */
export function notOnSharedDatabase(what: string, details: Record<string, unknown> = {}, how?: string): AppError {
  return new AppError('SHARED_DATABASE_UNSUPPORTED', `${what} is not available on a shared database yet; it works on a local workspace${how ? ` (${how})` : ''}.`, details);
}

/**
 * Builds the services over a member's connection. `workspaceDir` is the member's own folder: only
 * a folder search for relinking looks at it (as the limit it must not walk into).
 */
export interface SharedServicesOptions {
  /** Where health checks tell the page of their results (the desk's bus); default none. */
  events?: EventBus;
  /** More operations on the same connection (the desk's, shared-desk-handlers.ts). */
  more?: (parts: { evidence: EvidenceStore; health: HealthService; answers: AnswersService }) => Partial<Handlers>;
}

export function createSharedServices(store: PgStore, workspaceDir: string, options: SharedServicesOptions = {}): SharedServices {
  const evidence = pgEvidenceStore(store);
  const search = new SearchService(evidence.search);
  const bus = options.events ?? new EventBus();
  const health = new HealthService(evidence.health, bus, workspaceDir);
  const citationReads = new SharedCitationReads(evidence, pgAgentCitations({ pool: store.pool, who: store.who }));
  const defaults = () => ({ ...apiDefaults('shared'), user_id: store.who.login, agent_id: store.who.login });
  const cite = new SharedCiteService(evidence, citationReads, defaults);
  // Extraction children start at the first file; the local folder is only what a folder walk leaves out.
  const pool = new WorkerPool();
  // Imports, verifications and their jobs (the desk's cards say which answer is being verified).
  const answers = sharedAnswersService(evidence, bus);
  const ingest = new IngestService(evidence.ingest, new BlobStore(workspaceDir), bus, () => ingestSettingsFrom(DEFAULT_WORKSPACE_SETTINGS), pool);
  const register = sharedRegisterSource(evidence, ingest, defaults);
  const refused = Object.fromEntries(
    HANDLER_NAMES.map((name) => [
      name,
      () => {
        throw notOnSharedDatabase(`The operation ${name}`, { operation: name });
      },
    ]),
  ) as unknown as Handlers;
  const handlers: Handlers = {
    ...refused,
    'search.query': async ({ query, limit, sourceIds, kinds, snippets }) => ({
      hits: await search.search(query, { limit, snippets, ...(sourceIds === undefined ? {} : { sourceIds }), ...(kinds === undefined ? {} : { kinds }) }),
    }),
    'sources.check': ({ ids }) => health.checkAll(ids),
    // The single chain every member appends to, walked in one snapshot; its end held to audit_head
    // and to the head this member saw last (a file in its own folder).
    'audit.verify': async () => checkData(await verifySharedChain(store, workspaceDir)),
    // The citation tools' reads (the MCP server's search_sources, get_source, get_citation,
    // list_citations, format_citation).
    'citations.searchSources': ({ query, limit, source }) => citationReads.searchSources(query, limit, source),
    'citations.getSource': ({ source, page }) => citationReads.getSource(source, page),
    'citations.get': ({ citation_id }) => citationReads.get(citation_id),
    'citations.list': (input) => citationReads.list(input),
    'citations.format': ({ citation_id }) => citationReads.format(citation_id),
    'sources.ingest': (input) => ingest.ingest(ingestRequest(input)),
    'sources.cancelIngest': ({ batchId }) => ({ cancelled: ingest.cancel(batchId) }),
    // Verified at once and written in one transaction as the member (row-level security: an
    // agent cites in its own sessions of its projects).
    'citations.cite': (input) => cite.cite(input),
    // As the member: an admin adds a document, an agent a custom source; PostgreSQL refuses the rest, naming the role.
    'citations.registerSource': (input) => register(input),
    ...sharedAnswerHandlers(answers),
    ...options.more?.({ evidence, health, answers }),
  };
  return {
    store,
    evidence,
    health,
    ingest,
    dispatch: createDispatcher(handlers),
    warmCite: () => cite.warm(),
    close: async () => {
      await pool.close();
      cite.close();
      await evidence.close();
    },
  };
}
