import fs from 'node:fs';
import path from 'node:path';
import { MAX_ANSWER_CHARS, type AnswerFile } from '../../shared/contract/answer-schemas.ts';
import { AppError } from '../../shared/contract/errors.ts';

/**
 * Reads an answer file for answers.import / answers.check, which take text, never a path: the
 * command line reads the file itself, as the renderer does with a file the user picked. Errors
 * name the file and say what to do.
 */
export function readAnswerFile(file: string): AnswerFile {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new AppError('FILE_MISSING', `${file} does not exist. Check the path and try again.`, { path: file });
  }
  if (!stat.isFile()) throw new AppError('FILE_UNREADABLE', `${file} is not a file. Give the path of an answer file.`, { path: file });
  // Bytes bound characters from above, so a file within the limit always fits the contract.
  if (stat.size > MAX_ANSWER_CHARS) {
    throw new AppError('FILE_TOO_LARGE', `${file} is ${Math.round(stat.size / 1e6)} MB; answer files up to ${MAX_ANSWER_CHARS / 1e6} MB are accepted.`, { path: file });
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    throw new AppError('FILE_UNREADABLE', `${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Check its permissions.`, { path: file });
  }
  return { content: new TextDecoder('utf-8').decode(bytes), fileName: path.basename(file) };
}
