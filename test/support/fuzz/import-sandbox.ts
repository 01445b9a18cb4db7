/**
 * Runs the app's answer importer (parseAnswerFile) on one input at a time in a worker thread with
 * a time limit: a hang is reported as such (and the worker replaced), never waited out.
 */
import { Worker } from 'node:worker_threads';
import { ERROR_CODES } from '../../../shared/contract/errors.ts';
import { ImportedAnswer } from '../../../shared/imports/model.ts';
import type { ImportReply, ImportRequest, ImportResult } from './import-worker.ts';

export type ImportOutcome = ImportResult | { kind: 'hang'; ms: number };

export class ImportSandbox {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly limitMs: number;

  constructor(limitMs: number) {
    this.limitMs = limitMs;
  }

  private spawn(): Worker {
    this.worker ??= new Worker(new URL('./import-worker.ts', import.meta.url));
    return this.worker;
  }

  /** Waits for the worker to load the importers, so that start-up is not counted against the first input. */
  async ready(): Promise<void> {
    await this.run('{}', 'warm-up.json');
  }

  run(content: string, fileName: string): Promise<ImportOutcome> {
    const worker = this.spawn();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const done = (outcome: ImportOutcome): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve(outcome);
      };
      const onMessage = (reply: ImportReply): void => {
        if (reply.id !== id) return;
        const { id: _id, ...outcome } = reply;
        done(outcome);
      };
      const onError = (e: Error): void => {
        clearTimeout(timer);
        this.worker = null;
        reject(e);
      };
      const timer = setTimeout(() => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        this.worker = null;
        void worker.terminate();
        resolve({ kind: 'hang', ms: Date.now() - started });
      }, this.limitMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, content, fileName } satisfies ImportRequest);
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
  }
}

/** The codes an importer may refuse a file with. */
export const IMPORT_ERROR_CODES: readonly string[] = ['ANSWER_FORMAT_UNKNOWN', 'ANSWER_INVALID'];

/**
 * What is wrong with an importer's outcome, or null: a parsed answer must satisfy the contract's
 * schema and claim only well-formed offset ranges; a refusal must be an AppError with an importer
 * code that names the file; anything else (another exception, a hang) is a failure.
 */
export function importProblem(outcome: ImportOutcome, fileName: string): string | null {
  switch (outcome.kind) {
    case 'hang':
      return `no answer within ${outcome.ms} ms`;
    case 'other-error':
      return `threw ${outcome.name} instead of a coded AppError: ${outcome.message}\n${outcome.stack}`;
    case 'app-error':
      if (!(ERROR_CODES as readonly string[]).includes(outcome.code)) return `AppError with a code outside the contract: ${outcome.code}`;
      if (!IMPORT_ERROR_CODES.includes(outcome.code)) return `refused with ${outcome.code}, not an importer code: ${outcome.message}`;
      if (!outcome.message.includes(fileName)) return `the ${outcome.code} message does not name ${fileName}: ${outcome.message}`;
      return null;
    case 'parsed': {
      const checked = ImportedAnswer.safeParse(outcome.answer);
      if (!checked.success) return `parsed answer outside the contract: ${checked.error.message}`;
      for (const c of checked.data.citations) {
        const { charStart, charEnd } = c.locator;
        if (charStart !== undefined && charEnd !== undefined && charEnd < charStart) return `citation [${c.marker}] claims characters ${charStart}–${charEnd}: the range ends before it starts`;
      }
      return null;
    }
  }
}
