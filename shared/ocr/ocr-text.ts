/**
 * OCR text is text with a flag (DESIGN.md §11): the words an OCR engine recognised on a page image,
 * joined into the page's stored text the way pdf.js items are (each word is one item, with its
 * start offset), plus each word's box so the viewer can lay an invisible text layer over the scan
 * and an export can box a quote on it.
 */

/** How a verifier note about a match on OCR text begins (the review card says "on OCR text" from it). */
export const OCR_NOTE_PREFIX = 'found on OCR text';

/** [x0, y0, x1, y1] as fractions of the displayed page (its /Rotate applied), top-left origin. */
export type OcrBox = [number, number, number, number];

export interface OcrWord {
  text: string;
  /** In pixels of the recognised image. */
  bbox: { x0: number; y0: number; x1: number; y1: number };
  /** 0–100, the engine's own. */
  confidence: number;
}

/** Words in reading order, grouped as the engine grouped them: paragraphs of lines of words. */
export type OcrParagraphs = OcrWord[][][];

export interface OcrPageText {
  text: string;
  itemStarts: number[];
  boxes: OcrBox[];
  /** Mean word confidence (0–100) of the words kept, weighted by their length; null with no words. */
  confidence: number | null;
  wordCount: number;
}

/**
 * Words below this confidence that hold no letter or digit are dropped: specks and rules of the
 * scan read as "|" or "~". Words with letters are kept whatever their confidence (a quote may be
 * on them; the fuzzy match absorbs a misread), so nothing that could be text is silently lost.
 */
const SPECK_CONFIDENCE = 60;

const round = (n: number): number => Math.round(n * 100_000) / 100_000;

function keep(word: OcrWord): boolean {
  const t = word.text.trim();
  if (t === '') return false;
  return /[\p{L}\p{N}]/u.test(t) || word.confidence >= SPECK_CONFIDENCE;
}

/**
 * The page text: the words of a line joined by one space, a newline after each line and a blank
 * line between paragraphs; every word is one item whose box is given as a fraction of the image.
 */
export function ocrPageText(paragraphs: OcrParagraphs, width: number, height: number): OcrPageText {
  let text = '';
  const itemStarts: number[] = [];
  const boxes: OcrBox[] = [];
  let weighted = 0;
  let chars = 0;
  for (const lines of paragraphs) {
    let wrote = false;
    for (const line of lines) {
      const words = line.filter(keep);
      if (words.length === 0) continue;
      words.forEach((w, i) => {
        if (i > 0) text += ' ';
        const t = w.text.trim();
        itemStarts.push(text.length);
        text += t;
        boxes.push([round(w.bbox.x0 / width), round(w.bbox.y0 / height), round(w.bbox.x1 / width), round(w.bbox.y1 / height)]);
        weighted += w.confidence * t.length;
        chars += t.length;
      });
      text += '\n';
      wrote = true;
    }
    if (wrote) text += '\n';
  }
  return { text, itemStarts, boxes, confidence: chars > 0 ? Math.round((weighted / chars) * 10) / 10 : null, wordCount: itemStarts.length };
}
