// What the viewer shows of a DOCX, HTML, text or Markdown file, made by the extractors' own code
// (the same decoding, conversion and block walk), so that its block and line numbers are the
// stored segments' by construction. Runs in an extraction worker: documents are untrusted input.
import { AppError } from '../../../shared/contract/errors.ts';
import type { SourceKind } from '../../../shared/contract/schemas.ts';
import type { SheetGrid, SlideOutline, ViewBlock } from '../../../shared/contract/content-schemas.ts';
import { docxView } from './extractors/docx.ts';
import { htmlDocumentBlocks } from './extractors/html.ts';
import { isEncryptedOfficeFile } from './extractors/ooxml-zip.ts';
import { pptxView } from './extractors/pptx.ts';
import { decodeLines } from './extractors/text.ts';
import { xlsxView } from './extractors/xlsx.ts';

export type ViewPayload =
  | { view: 'docx'; html: string; imagesOmitted: number; unannotated: number }
  | { view: 'blocks'; blocks: ViewBlock[] }
  | { view: 'lines'; lines: string[] }
  | { view: 'slides'; slides: SlideOutline[] }
  | { view: 'grid'; sheets: SheetGrid[] };

export async function viewableContent(kind: SourceKind, bytes: Uint8Array, fileName: string, reader = false): Promise<ViewPayload> {
  // The password a protected Office file was read with is not kept, so the file cannot be shown again.
  if ((kind === 'docx' || kind === 'pptx' || kind === 'xlsx') && isEncryptedOfficeFile(bytes)) {
    throw new AppError(
      'OFFICE_ENCRYPTED',
      `"${fileName}" is protected by a password, which Evidence Desk does not keep: its text was read when it was added and can be cited and checked, but the file itself cannot be shown here.`,
      { fileName, stage: 'view' },
    );
  }
  switch (kind) {
    case 'docx':
      return { view: 'docx', ...(await docxView(bytes, fileName)) };
    case 'html': {
      const { split } = htmlDocumentBlocks(bytes, fileName, { reader });
      return {
        view: 'blocks',
        blocks: split.blocks.map((b) => ({
          paragraph: b.paragraph,
          text: b.text,
          // The HTML walker makes no page or line blocks.
          blockType: b.blockType === 'page' || b.blockType === 'lines' ? 'paragraph' : b.blockType,
          headingLevel: /^h[1-6]$/.test(b.tag) ? Number(b.tag[1]) : null,
          ...(b.cell ? { cell: b.cell } : {}),
        })),
      };
    }
    case 'text':
    case 'markdown': {
      const { lines } = decodeLines(bytes, fileName);
      // A final newline ends the last line; it does not start an empty one (as editors number them).
      if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
      return { view: 'lines', lines };
    }
    case 'pptx':
      return { view: 'slides', slides: pptxView(bytes, fileName) };
    case 'xlsx':
      return { view: 'grid', sheets: xlsxView(bytes, fileName) };
    case 'pdf':
      throw new AppError('UNSUPPORTED_TYPE', `${fileName} is a PDF: the viewer reads it page by page through its source URL.`);
  }
}
