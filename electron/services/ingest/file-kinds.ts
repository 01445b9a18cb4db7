import path from 'node:path';
import type { SourceKind } from '../../../shared/contract/schemas.ts';

const BY_EXTENSION: Record<string, SourceKind> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.txt': 'text',
  '.text': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
};

export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION);

export function kindForPath(filePath: string): SourceKind | null {
  return BY_EXTENSION[path.extname(filePath).toLowerCase()] ?? null;
}

export function isHidden(filePath: string): boolean {
  return path.basename(filePath).startsWith('.');
}
