// Parses answer files for the fuzz properties in a worker thread, so that an input that makes an
// importer loop or backtrack for ever is stopped by the sandbox's time limit instead of hanging the run.
import { parentPort } from 'node:worker_threads';
import { isAppError } from '../../../shared/contract/errors.ts';
import { parseAnswerFile } from '../../../electron/services/verification/parse-answer-file.ts';

export interface ImportRequest {
  id: number;
  content: string;
  fileName: string;
}

export type ImportResult =
  | { kind: 'parsed'; answer: unknown }
  | { kind: 'app-error'; code: string; message: string }
  | { kind: 'other-error'; name: string; message: string; stack: string };

export type ImportReply = ImportResult & { id: number };

parentPort?.on('message', (req: ImportRequest) => {
  let reply: ImportReply;
  try {
    reply = { id: req.id, kind: 'parsed', answer: parseAnswerFile(req.content, req.fileName) };
  } catch (e) {
    if (isAppError(e)) reply = { id: req.id, kind: 'app-error', code: e.code, message: e.message };
    else {
      const err = e instanceof Error ? e : new Error(String(e));
      reply = { id: req.id, kind: 'other-error', name: err.name, message: err.message.slice(0, 2000), stack: (err.stack ?? '').slice(0, 4000) };
    }
  }
  parentPort?.postMessage(reply);
});
