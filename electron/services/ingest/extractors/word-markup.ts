// WordprocessingML that mammoth drops, rewritten into markup it reads, before conversion. mammoth
// ignores (with a warning, or silently) the text of:
// - simple fields (w:fldSimple): caption numbers ("Table 3"), dates, cross-references;
// - bidirectional runs (w:dir, w:bdo) and ruby (w:ruby: the base text is the text; the reading aid is not);
// - text boxes drawn only as DrawingML (wps:txbx with no VML fallback), as docx.js and some other
//   generators write them; mammoth reads text boxes from the VML fallback (w:pict) alone.
// The rewrite keeps every other byte of the part, so block order and text are mammoth's own.
import { Parser } from 'htmlparser2';

/** Elements replaced by their content. */
const UNWRAP = new Set(['fldSimple', 'dir', 'bdo', 'ruby', 'rubyBase']);
/** Elements dropped with their content. */
const DROP = new Set(['rt', 'rubyPr']);

/** A cheap test before parsing: most parts contain none of these. */
const TRIGGER = /:(?:fldSimple|dir|bdo|ruby|txbxContent)\b/;

interface Open {
  local: string;
  prefix: string;
  start: number;
  /** drawing: the text boxes it holds (raw XML). */
  boxes: string[];
  /** AlternateContent: pictures of the boxes in its Choice, placed after it if it has no Fallback. */
  pictures: string[];
  hasFallback: boolean;
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);
const prefixOf = (name: string): string => (name.includes(':') ? name.slice(0, name.indexOf(':')) : '');

/** The part rewritten, or null when it needs nothing. */
export function normaliseWordXml(xml: string): string | null {
  if (!TRIGGER.test(xml)) return null;
  const edits: { at: number; end: number; text: string }[] = [];
  const open: Open[] = [];
  let dropDepth = 0;
  /** The WordprocessingML prefix, the root element's (w:document, w:footnotes, w:txbxContent, …). */
  let w: string | null = null;

  const nearest = (local: string): Open | undefined => {
    for (let i = open.length - 1; i >= 0; i--) if (open[i]?.local === local) return open[i];
    return undefined;
  };
  /** The text boxes as a VML picture, which mammoth reads and places after the paragraph. */
  const asPicture = (prefix: string, boxes: readonly string[]): string => {
    const p = prefix === '' ? '' : `${prefix}:`;
    return `<${p}pict>${boxes.map((b) => normaliseWordXml(b) ?? b).join('')}</${p}pict>`;
  };

  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        const prefix = prefixOf(name);
        w ??= prefix;
        open.push({ local, prefix, start: parser.startIndex, boxes: [], pictures: [], hasFallback: false });
        if (dropDepth > 0 || (DROP.has(local) && prefix === w)) {
          dropDepth++;
          return;
        }
        if (UNWRAP.has(local) && prefix === w) edits.push({ at: parser.startIndex, end: parser.endIndex + 1, text: '' });
        if (local === 'Fallback') {
          const ac = open[open.length - 2];
          if (ac?.local === 'AlternateContent') ac.hasFallback = true;
        }
      },
      onclosetag(_name, selfClosing) {
        const el = open.pop();
        if (!el) return;
        const end = parser.endIndex + 1;
        if (dropDepth > 0) {
          dropDepth--;
          if (dropDepth === 0) edits.push({ at: el.start, end, text: '' });
          return;
        }
        if (UNWRAP.has(el.local) && el.prefix === w && !selfClosing) edits.push({ at: parser.startIndex, end, text: '' });
        if (el.local === 'txbxContent') {
          // Only boxes in DrawingML: a txbxContent under w:pict (VML) is read by mammoth already.
          const drawing = nearest('drawing');
          if (drawing && !nearest('pict')) drawing.boxes.push(xml.slice(el.start, end));
        } else if (el.local === 'drawing' && el.boxes.length > 0) {
          const picture = asPicture(el.prefix, el.boxes);
          const ac = nearest('Choice') ? nearest('AlternateContent') : undefined;
          if (ac) ac.pictures.push(picture);
          else edits.push({ at: end, end, text: picture });
        } else if (el.local === 'AlternateContent' && el.pictures.length > 0 && !el.hasFallback) {
          // mammoth reads only the fallback of alternate content; with none, the boxes go after it.
          edits.push({ at: end, end, text: el.pictures.join('') });
        }
      },
    },
    { xmlMode: true },
  );
  parser.write(xml);
  parser.end();
  if (edits.length === 0) return null;
  // An insertion before a removal that starts at the same place.
  edits.sort((a, b) => a.at - b.at || a.end - b.end);
  let out = '';
  let last = 0;
  for (const edit of edits) {
    out += xml.slice(last, edit.at) + edit.text;
    last = edit.end;
  }
  return out + xml.slice(last);
}
