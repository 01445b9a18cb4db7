import { AppError } from '../../../../shared/contract/errors.ts';
import type { SourceKind } from '../../../../shared/contract/schemas.ts';
import type { ExtractContext, ExtractedDocument, Extractor } from '../extracted.ts';
import { extractDocx } from './docx.ts';
import { extractHtml } from './html.ts';
import { extractPdf } from './pdf.ts';
import { extractPptx } from './pptx.ts';
import { extractXlsx } from './xlsx.ts';
import { extractMarkdown, extractText } from './text.ts';

const EXTRACTORS: Record<SourceKind, Extractor> = {
  pdf: extractPdf,
  docx: extractDocx,
  text: extractText,
  markdown: extractMarkdown,
  html: extractHtml,
  pptx: extractPptx,
  xlsx: extractXlsx,
};

export function extractorFor(kind: SourceKind, fileName: string): Extractor {
  const extractor = EXTRACTORS[kind] as Extractor | undefined;
  if (!extractor) throw new AppError('UNSUPPORTED_TYPE', `${fileName}: ${kind} files cannot be ingested by this version.`);
  return extractor;
}

export function extract(kind: SourceKind, bytes: Uint8Array, ctx: ExtractContext): Promise<ExtractedDocument> {
  return extractorFor(kind, ctx.fileName)(bytes, ctx);
}
