/**
 * The PostgreSQL engine of EvidenceStore (issue 13): the areas over one member's connections
 * (PgStore's pool), bound by that member's access level.
 */
import type { EvidenceStore } from '../evidence-store.ts';
import { pgAnswers } from './pg-answers.ts';
import { pgCards } from './pg-cards.ts';
import { pgCitations } from './pg-citations.ts';
import { pgHealth } from './pg-health.ts';
import { pgIngest } from './pg-ingest.ts';
import { pgLibrary } from './pg-library.ts';
import { pgReviews } from './pg-reviews.ts';
import { pgRuns } from './pg-runs.ts';
import { pgSearch } from './pg-search.ts';
import { pgSources } from './pg-sources.ts';
import type { PgStore } from './pg-store.ts';

export function pgEvidenceStore(store: PgStore): EvidenceStore {
  const ctx = { pool: store.pool, who: store.who };
  return {
    engine: 'postgres',
    member: { login: store.who.login, level: store.who.level },
    search: pgSearch(ctx),
    health: pgHealth(ctx),
    sources: pgSources(ctx),
    answers: pgAnswers(ctx),
    reviews: pgReviews(ctx),
    cards: pgCards(ctx),
    ingest: pgIngest(ctx),
    runs: pgRuns(ctx),
    library: pgLibrary(ctx),
    citations: pgCitations(ctx),
    close: () => store.close(),
  };
}
