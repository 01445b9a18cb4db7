import path from 'node:path';
import type { SourceKind } from '../../../shared/contract/schemas.ts';

const BY_EXTENSION: Record<string, SourceKind> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  // Macro-enabled Word documents are DOCX with a macro part, which is never read, let alone run.
  '.docm': 'docx',
  // PowerPoint and Excel; the macro-enabled kinds are read the same way, their macros never touched.
  '.pptx': 'pptx',
  '.pptm': 'pptx',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
  '.txt': 'text',
  '.text': 'text',
  // Data exports and logs are cited by line like any text. JSON is not among them: answer files
  // are JSON, and a folder of documents with its answer beside it must not ingest the answer.
  '.csv': 'text',
  '.tsv': 'text',
  '.log': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
};

export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION);

/** The supported types in words, for messages. */
export const SUPPORTED_TYPES_IN_WORDS = 'PDF, Word (.docx, .docm), PowerPoint (.pptx, .pptm), Excel (.xlsx, .xlsm), HTML, Markdown and plain text (.txt, .csv, .tsv, .log)';

export function kindForPath(filePath: string): SourceKind | null {
  return BY_EXTENSION[path.extname(filePath).toLowerCase()] ?? null;
}

export function isHidden(filePath: string): boolean {
  return path.basename(filePath).startsWith('.');
}
