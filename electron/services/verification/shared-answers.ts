/**
 * Checking, importing and verifying answers on a shared (PostgreSQL) workspace (issue 13): the
 * answers service with the shared store as its engine, so it verifies over the pool's sources
 * (pool-reads.ts), writes imports and runs through the `runs` area and replies through the
 * `answers` reads. Its SQLite stores are a scratch database in memory that these handlers never
 * reach (only the service's synchronous local paths use them).
 */
import type { Handlers } from '../../../shared/contract/dispatcher.ts';
import type { EventBus } from '../events.ts';
import { AnchoringStore } from '../store/anchoring-store.ts';
import { AnswersStore } from '../store/answers-store.ts';
import { openScratchDatabase } from '../store/database.ts';
import type { EvidenceStore } from '../store/evidence-store.ts';
import { SearchStore } from '../store/search-store.ts';
import { AnswersService } from './answers-service.ts';
import { Verifier } from './verifier.ts';

/** The operations of answers that run on a shared workspace. */
export const SHARED_ANSWER_HANDLERS = ['answers.check', 'answers.import', 'answers.verify'] as const;

export function sharedAnswerHandlers(evidence: EvidenceStore, events: EventBus): Pick<Handlers, (typeof SHARED_ANSWER_HANDLERS)[number]> {
  const scratch = openScratchDatabase();
  const anchoring = new AnchoringStore(scratch);
  const answers = new AnswersService(new AnswersStore(scratch), anchoring, new Verifier(anchoring, new SearchStore(scratch)), { evidence, events });
  return {
    'answers.check': (input) => answers.checkJudged(input),
    'answers.import': (input) => answers.importFileJudged(input),
    'answers.verify': ({ id, jobId }) => answers.verifyJudged(id, undefined, jobId),
  };
}
