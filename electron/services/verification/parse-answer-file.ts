import { parseAnswer } from '../../../shared/imports/index.ts';
import type { ImportedAnswer } from '../../../shared/imports/model.ts';
import { sha256Bytes } from '../hashing/sha256.ts';

/**
 * An answer file's text parsed into the common model, with inline documents (an Anthropic request's
 * base64 PDF or untitled text) known by the same SHA-256 ingestion gives a file's bytes.
 */
export function parseAnswerFile(content: string, fileName: string): ImportedAnswer {
  return parseAnswer(content, fileName, { digest: sha256Bytes });
}
