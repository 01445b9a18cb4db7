/** Builds the citation tools' services and their contract handlers over one workspace (issue 11). */
import os from 'node:os';
import path from 'node:path';
import type { FullContext } from '../../../shared/contract/citation-schemas.ts';
import type { Handlers } from '../../../shared/contract/dispatcher.ts';
import type { EventBus } from '../events.ts';
import type { IngestService } from '../ingest/ingest-service.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { AnswersStore } from '../store/answers-store.ts';
import { CitationsStore } from '../store/citations-store.ts';
import type { Db } from '../store/database.ts';
import { SearchStore } from '../store/search-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import { Verifier } from '../verification/verifier.ts';
import { CitationReads } from './citation-reads.ts';
import { CitationService } from './citation-service.ts';
import { CiteHints } from './cite-hints.ts';
import { SessionFeed } from './session-feed.ts';
import type { WebSourceRegistrar } from './web-source-door.ts';

export interface CitationToolsOptions {
  /** The context a call inherits when it carries none; the MCP server passes its session's. */
  defaults?: () => FullContext;
  /** Where register_source sends a URL (default: the coded "not available yet" error). */
  registerWeb?: WebSourceRegistrar;
}

type CitationHandlerName = 'citations.registerSource' | 'citations.cite' | 'citations.searchSources' | 'citations.getSource' | 'citations.get' | 'citations.list' | 'citations.format';

export interface CitationTools {
  readonly service: CitationService;
  readonly reads: CitationReads;
  readonly feed: SessionFeed;
  readonly handlers: Pick<Handlers, CitationHandlerName>;
  close(): void;
}

/** A call over the HTTP API without a context of its own. */
export function apiDefaults(workspaceDir: string): FullContext {
  let user = 'unknown-user';
  try {
    user = os.userInfo().username || user;
  } catch {
    // no user database entry (a container): keep the stand-in
  }
  return { session_id: 'api', agent_id: 'unknown-agent', user_id: user, project_id: path.basename(workspaceDir) || 'default' };
}

export function createCitationTools(
  deps: { db: Db; answersStore: AnswersStore; anchoring: AnchoringStore; sources: SourcesStore; ingest: IngestService; events: EventBus; workspaceDir: string; live: boolean } & CitationToolsOptions,
): CitationTools {
  const search = new SearchStore(deps.db);
  const store = new CitationsStore(deps.db, deps.answersStore.chain);
  const feed = new SessionFeed(store, deps.events, deps.workspaceDir);
  if (deps.live) feed.start();
  const fallback = apiDefaults(deps.workspaceDir);
  const service = new CitationService({
    answers: deps.answersStore,
    citations: store,
    anchoring: deps.anchoring,
    verifier: new Verifier(deps.anchoring, search),
    hints: new CiteHints(deps.anchoring, search),
    ingest: deps.ingest,
    defaults: deps.defaults ?? (() => fallback),
    ...(deps.registerWeb ? { registerWeb: deps.registerWeb } : {}),
    committed: () => feed.poke(),
  });
  const reads = new CitationReads({ citations: store, anchoring: deps.anchoring, sources: deps.sources, search, resolve: (id) => service.resolve(id) });
  return {
    service,
    reads,
    feed,
    handlers: {
      'citations.registerSource': (input) => service.registerSource(input),
      'citations.cite': (input) => service.cite(input),
      'citations.searchSources': ({ query, limit, source }) => reads.searchSources(query, limit, source),
      'citations.getSource': ({ source, page }) => reads.getSource(source, page),
      'citations.get': ({ citation_id }) => reads.get(citation_id),
      'citations.list': (input) => reads.list(input),
      'citations.format': ({ citation_id }) => reads.format(citation_id),
    },
    close: () => {
      deps.answersStore.flushHead();
      feed.close();
    },
  };
}
