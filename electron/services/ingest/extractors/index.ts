import { AppError } from '../../../../shared/contract/errors.ts';
import type { SourceKind } from '../../../../shared/contract/schemas.ts';
import type { ExtractContext, ExtractedDocument, Extractor } from '../extracted.ts';
import { extractPdf } from './pdf.ts';

const EXTRACTORS: Partial<Record<SourceKind, Extractor>> = {
  pdf: extractPdf,
};

export function extractorFor(kind: SourceKind, fileName: string): Extractor {
  const extractor = EXTRACTORS[kind];
  if (!extractor) throw new AppError('UNSUPPORTED_TYPE', `${fileName}: ${kind} files cannot be ingested by this version.`);
  return extractor;
}

export function extract(kind: SourceKind, bytes: Uint8Array, ctx: ExtractContext): Promise<ExtractedDocument> {
  return extractorFor(kind, ctx.fileName)(bytes, ctx);
}
