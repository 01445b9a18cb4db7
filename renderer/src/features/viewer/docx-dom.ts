// The DOCX viewer's document: mammoth's HTML as the main process annotated it, sanitised, cut into
// chunks that mount lazily, with every block element and text piece indexed by block number.
import DOMPurify from 'dompurify';
import type { Piece, UnitRange } from './flow-place.ts';

export interface PieceEl extends Piece {
  el: HTMLElement;
}

export interface DocxDom {
  /** Top-level nodes, a chunk at a time (a chunk is mounted when it nears the viewport). */
  chunks: Node[][];
  /** Estimated height of each chunk before it is mounted, in pixels. */
  heights: number[];
  blocks: Map<number, HTMLElement>;
  pieces: Map<number, PieceEl[]>;
  chunkOf: Map<Node, number>;
  /** Elements with an id (footnotes and their references), by the id the document gave them. */
  anchors: Map<string, HTMLElement>;
  imagesDropped: number;
}

const CHUNK_CHARS = 6000;
const CHUNK_NODES = 60;
const LINE_PX = 25;
const CHARS_PER_LINE = 95;
const BLOCK_GAP_PX = 12;

/**
 * Sanitised with DOMPurify (DESIGN.md §8): no scripts, no styles, no forms, no SVG or MathML; ids are
 * prefixed (SANITIZE_NAMED_PROPS) so that a document cannot shadow the app's own. Images stay only as
 * data: URIs (the CSP allows data: images and nothing remote); links lose their href and become
 * in-document jumps or plain text with the address as a tooltip.
 */
export function prepareDocx(html: string): DocxDom {
  const fragment = DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    USE_PROFILES: { html: true },
    SANITIZE_NAMED_PROPS: true,
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'video', 'audio', 'source', 'track', 'picture'],
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'ping', 'target'],
  });
  let imagesDropped = 0;
  for (const img of Array.from(fragment.querySelectorAll('img'))) {
    if (!/^data:image\//i.test(img.getAttribute('src') ?? '')) {
      img.remove();
      imagesDropped++;
    } else if (!img.hasAttribute('alt')) {
      // A picture the document gave no description: said as such to a screen reader (axe image-alt).
      img.setAttribute('alt', 'A picture in the document, without a description');
    }
  }
  const anchors = new Map<string, HTMLElement>();
  for (const el of Array.from(fragment.querySelectorAll<HTMLElement>('[id]'))) anchors.set(el.id.replace(/^user-content-/, ''), el);
  for (const a of Array.from(fragment.querySelectorAll<HTMLAnchorElement>('a[href]'))) {
    const href = a.getAttribute('href') ?? '';
    a.removeAttribute('href');
    if (href.startsWith('#')) a.dataset['jump'] = href.slice(1);
    else a.title = href;
  }
  const blocks = new Map<number, HTMLElement>();
  for (const el of Array.from(fragment.querySelectorAll<HTMLElement>('[data-ed-block]'))) blocks.set(Number(el.dataset['edBlock']), el);
  const pieces = new Map<number, PieceEl[]>();
  for (const el of Array.from(fragment.querySelectorAll<HTMLElement>('[data-ed-b]'))) {
    const block = Number(el.dataset['edB']);
    const list = pieces.get(block) ?? [];
    list.push({ at: Number(el.dataset['edAt']), s: el.textContent, el });
    pieces.set(block, list);
  }

  const chunks: Node[][] = [];
  const heights: number[] = [];
  const chunkOf = new Map<Node, number>();
  let current: Node[] = [];
  let chars = 0;
  let height = 0;
  const close = () => {
    if (current.length === 0) return;
    chunks.push(current);
    heights.push(Math.max(height, LINE_PX));
    current = [];
    chars = 0;
    height = 0;
  };
  for (const node of Array.from(fragment.childNodes)) {
    const text = node.textContent ?? '';
    const el = node instanceof HTMLElement ? node : null;
    const innerBlocks = el ? Math.max(1, el.querySelectorAll('[data-ed-block]').length) : 0;
    chunkOf.set(node, chunks.length);
    current.push(node);
    chars += text.length;
    height += Math.ceil(text.length / CHARS_PER_LINE) * LINE_PX + innerBlocks * BLOCK_GAP_PX + (el ? el.querySelectorAll('img').length * 240 : 0);
    if (chars >= CHUNK_CHARS || current.length >= CHUNK_NODES) close();
  }
  close();
  return { chunks, heights, blocks, pieces, chunkOf, anchors, imagesDropped };
}

/** The chunk holding an element (its top-level ancestor's chunk). */
export function chunkOfElement(dom: DocxDom, el: Node): number | null {
  let n: Node | null = el;
  while (n) {
    const chunk = dom.chunkOf.get(n);
    if (chunk !== undefined) return chunk;
    n = n.parentNode;
  }
  return null;
}

/**
 * Marks the ranges on the pieces of their blocks and the target's blocks as current; returns the
 * undo. Pieces hold one text node each, so a mark splits it in three and the undo restores it.
 */
export function markDocx(dom: DocxDom, units: readonly number[], ranges: readonly UnitRange[], failed: boolean): () => void {
  const undo: (() => void)[] = [];
  for (const unit of units) {
    const el = dom.blocks.get(unit);
    if (!el) continue;
    el.classList.add(failed ? 'ed-current-failed' : 'ed-current');
    undo.push(() => el.classList.remove('ed-current', 'ed-current-failed'));
  }
  for (const r of ranges) {
    for (const p of dom.pieces.get(r.unit) ?? []) {
      const from = Math.max(r.from, p.at) - p.at;
      const to = Math.min(r.to, p.at + p.s.length) - p.at;
      if (from >= to) continue;
      const doc = p.el.ownerDocument;
      const mark = doc.createElement('mark');
      mark.className = 'quote-highlight';
      mark.textContent = p.s.slice(from, to);
      p.el.replaceChildren(doc.createTextNode(p.s.slice(0, from)), mark, doc.createTextNode(p.s.slice(to)));
      undo.push(() => p.el.replaceChildren(doc.createTextNode(p.s)));
    }
  }
  return () => undo.forEach((f) => f());
}
