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

/** The answers service over the shared store (the command line's and the desk's, one per member's connection). */
export function sharedAnswersService(evidence: EvidenceStore, events: EventBus): AnswersService {
  const scratch = openScratchDatabase();
  const anchoring = new AnchoringStore(scratch);
  return new AnswersService(new AnswersStore(scratch), anchoring, new Verifier(anchoring, new SearchStore(scratch)), { evidence, events });
}

export function sharedAnswerHandlers(answers: AnswersService): Pick<Handlers, (typeof SHARED_ANSWER_HANDLERS)[number]> {
  return {
    'answers.check': (input) => answers.checkJudged(input),
    'answers.import': (input) => answers.importFileJudged(input),
    'answers.verify': ({ id, jobId }) => answers.verifyJudged(id, undefined, jobId),
  };
}
