// Plain text and Markdown: segments are runs of lines, located by 1-based line numbers (DESIGN.md §4).
// A segment's text is its lines joined with "\n" exactly as decoded (never reflowed), so a range
// [start, end) inside it is a range of characters in the file.
import { AppError } from '../../../../shared/contract/errors.ts';
import type { Warning } from '../../../../shared/contract/schemas.ts';
import type { ExtractContext, ExtractedDocument, ExtractedSegment, Extractor } from '../extracted.ts';
import { decodeText, normaliseLineEndings } from './decode.ts';

/** Long unbroken runs are cut so that a locator still points within a screenful of lines. */
export const MAX_LINES_PER_SEGMENT = 40;

const BLANK = /^[ \t\f\v]*$/;

function throwIfAborted(ctx: ExtractContext): void {
  if (ctx.signal?.aborted) throw new AppError('CANCELLED', `Extraction of "${ctx.fileName}" was cancelled.`, { fileName: ctx.fileName });
}

/** A run of consecutive lines [first, last] (0-based indices into the line array). */
interface LineBlock {
  first: number;
  last: number;
  heading?: { level: number; text: string };
}

function toSegment(lines: readonly string[], block: LineBlock, headingPath: string[] | undefined): ExtractedSegment {
  const seg: ExtractedSegment = {
    text: lines.slice(block.first, block.last + 1).join('\n'),
    line: block.first + 1,
    lineEnd: block.last + 1,
    blockType: block.heading ? 'heading' : 'lines',
  };
  if (headingPath !== undefined) seg.headingPath = headingPath;
  return seg;
}

/** Splits a block longer than the cap into consecutive pieces. */
function capBlock(block: LineBlock): LineBlock[] {
  if (block.heading || block.last - block.first + 1 <= MAX_LINES_PER_SEGMENT) return [block];
  const out: LineBlock[] = [];
  for (let first = block.first; first <= block.last; first += MAX_LINES_PER_SEGMENT) {
    out.push({ first, last: Math.min(block.last, first + MAX_LINES_PER_SEGMENT - 1) });
  }
  return out;
}

/** Plain text: a paragraph is the lines up to a blank (whitespace-only) line. */
function plainBlocks(lines: readonly string[]): LineBlock[] {
  const blocks: LineBlock[] = [];
  let start = -1;
  for (let i = 0; i <= lines.length; i++) {
    const blank = i === lines.length || BLANK.test(lines[i] ?? '');
    if (!blank && start < 0) start = i;
    if (blank && start >= 0) {
      blocks.push({ first: start, last: i - 1 });
      start = -1;
    }
  }
  return blocks;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
/** A paragraph that starts like this is a list, quote or table: a "---" below it is not a setext underline. */
const NOT_SETEXT_CONTENT = /^(?: {4,}|\t| {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\|))/;

function atxText(raw: string | undefined): string {
  return (raw ?? '').trim();
}

/**
 * Markdown: paragraphs as in plain text, but headings (ATX `#` and setext) are blocks of their own so
 * that the lines after them carry them in their heading path; fenced code stays one block across
 * blank lines; a YAML front matter block at the top is one block.
 */
function markdownBlocks(lines: readonly string[]): { blocks: LineBlock[]; frontMatterTitle: string | null } {
  const blocks: LineBlock[] = [];
  let frontMatterTitle: string | null = null;
  let i = 0;

  // As pandoc reads it: "---" on the first line, not followed by a blank line (that is a rule).
  if (lines[0] !== undefined && /^---[ \t]*$/.test(lines[0]) && !BLANK.test(lines[1] ?? '')) {
    let end = -1;
    for (let j = 1; j < lines.length; j++) {
      if (/^(?:---|\.\.\.)[ \t]*$/.test(lines[j] ?? '')) {
        end = j;
        break;
      }
    }
    if (end > 0) {
      for (let j = 1; j < end; j++) {
        const m = /^title:[ \t]*(.+?)[ \t]*$/.exec(lines[j] ?? '');
        if (m?.[1]) {
          frontMatterTitle = m[1].replace(/^(['"])(.*)\1$/, '$2');
          break;
        }
      }
      blocks.push({ first: 0, last: end });
      i = end + 1;
    }
  }

  let para = -1; // first line of the open paragraph, or -1
  const closePara = (last: number): void => {
    if (para >= 0 && last >= para) blocks.push({ first: para, last });
    para = -1;
  };

  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE_OPEN.exec(line);
    if (fence?.[1]) {
      closePara(i - 1);
      const marker = fence[1];
      const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      let j = i + 1;
      while (j < lines.length && !close.test(lines[j] ?? '')) j++;
      const last = Math.min(j, lines.length - 1); // an unclosed fence runs to the end of the file
      blocks.push({ first: i, last });
      i = last;
      continue;
    }
    if (BLANK.test(line)) {
      closePara(i - 1);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx?.[1]) {
      closePara(i - 1);
      blocks.push({ first: i, last: i, heading: { level: atx[1].length, text: atxText(atx[2]) } });
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext?.[1] && para >= 0 && !NOT_SETEXT_CONTENT.test(lines[para] ?? '')) {
      const text = lines
        .slice(para, i)
        .map((l) => l.trim())
        .join(' ');
      blocks.push({ first: para, last: i, heading: { level: setext[1][0] === '=' ? 1 : 2, text } });
      para = -1;
      continue;
    }
    if (para < 0) para = i;
  }
  closePara(lines.length - 1);
  return { blocks, frontMatterTitle };
}

function emptyWarning(fileName: string): Warning {
  return { code: 'FILE_EMPTY', message: `"${fileName}" contains no text (only whitespace); nothing in it can be cited.` };
}

/** A text file's lines as extraction and the viewer both see them (decoded, line endings normalised). */
export function decodeLines(bytes: Uint8Array, fileName: string): { lines: string[]; encoding: string; warnings: Warning[] } {
  const decoded = decodeText(bytes, fileName);
  const text = normaliseLineEndings(decoded.text);
  return { lines: text.split('\n'), encoding: decoded.encoding, warnings: [...decoded.warnings] };
}

export const extractText: Extractor = async (bytes, ctx) => {
  throwIfAborted(ctx);
  const { lines, encoding, warnings } = decodeLines(bytes, ctx.fileName);
  const segments = plainBlocks(lines)
    .flatMap(capBlock)
    .map((b) => toSegment(lines, b, undefined));
  if (segments.length === 0) warnings.push(emptyWarning(ctx.fileName));
  const doc: ExtractedDocument = { kind: 'text', method: `text@1; encoding=${encoding}`, title: null, pageCount: null, segments, warnings };
  return doc;
};

export const extractMarkdown: Extractor = async (bytes, ctx) => {
  throwIfAborted(ctx);
  const { lines, encoding, warnings } = decodeLines(bytes, ctx.fileName);
  const { blocks, frontMatterTitle } = markdownBlocks(lines);
  const stack: { level: number; text: string }[] = [];
  const segments: ExtractedSegment[] = [];
  let firstH1: string | null = null;
  for (const block of blocks) {
    const h = block.heading;
    if (h) {
      while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= h.level) stack.pop();
      // A heading's path is the headings that enclose it, not itself.
      segments.push(toSegment(lines, block, stack.map((s) => s.text)));
      if (h.text !== '') stack.push(h);
      if (h.level === 1 && firstH1 === null && h.text !== '') firstH1 = h.text;
      continue;
    }
    const path = stack.map((s) => s.text);
    for (const piece of capBlock(block)) segments.push(toSegment(lines, piece, path));
  }
  if (segments.length === 0) warnings.push(emptyWarning(ctx.fileName));
  return {
    kind: 'markdown',
    method: `markdown@1; encoding=${encoding}`,
    title: frontMatterTitle ?? firstH1,
    pageCount: null,
    segments,
    warnings,
  };
};
