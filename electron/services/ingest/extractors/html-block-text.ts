// A block's text as a browser shows it: CSS white space collapsed (or kept in <pre>), <br> as a
// line break, and where each piece of source text lands in it (for the viewer's offsets).

/** A block's own content, in order: text, <br>, or the place of a nested block. */
export type Token = { kind: 'text'; s: string; raw?: RawRange } | { kind: 'br' } | { kind: 'sep' };

/** Where a text token sits in the HTML source: [start, end) of its raw characters (entities undecoded). */
export interface RawRange {
  start: number;
  end: number;
}

/** What one text token contributes to its block's text: `s` at offset `at`. */
export interface TextPiece {
  token: number;
  at: number;
  s: string;
}

/** CSS white space: what a browser collapses. NBSP is not in it. */
const CSS_SPACE = /[ \t\n\r\f]+/;
export const HAS_VISIBLE = /[^ \t\n\r\f]/;

/**
 * A block's text, the way a browser lays it out: every run of white space (space, tab, LF, CR, FF)
 * in the block's own text, together with the boundary of a nested block, becomes one space; white
 * space at the start, at the end and next to a <br> disappears; <br> becomes "\n"; leading and trailing
 * "\n" are dropped. In a preserving block (pre) the text is kept as is, minus one leading newline (the
 * HTML parser drops it too) and trailing white space.
 */
export function renderBlockText(tokens: readonly Token[], pre: boolean): string {
  return renderBlock(tokens, pre).text;
}

/**
 * The block's text and, for each text token, the characters it contributes and where: a collapsed
 * space goes with the token whose white space it was (so a link or a bold run does not start with
 * one). The pieces tile the text except for <br> newlines and the spaces that stand for nested blocks.
 */
export function renderBlock(tokens: readonly Token[], pre: boolean): { text: string; pieces: TextPiece[] } {
  const raw: TextPiece[] = [];
  let out = '';
  if (pre) {
    tokens.forEach((t, token) => {
      const s = t.kind === 'text' ? t.s : '\n';
      if (t.kind === 'text' && s !== '') raw.push({ token, at: out.length, s });
      out += s;
    });
    const from = out.startsWith('\n') ? 1 : 0;
    const to = out.replace(/[ \t\n\r\f]+$/, '').length;
    return HAS_VISIBLE.test(out.slice(from, to)) ? clipPieces(out, raw, from, Math.max(from, to)) : { text: '', pieces: [] };
  }
  let pendingSpace = false;
  /** The token whose white space the pending space is; null for a nested block's boundary. */
  let spaceOwner: number | null = null;
  const last = new Map<number, TextPiece>();
  const emit = (token: number | null, s: string): void => {
    const piece = token === null ? undefined : last.get(token);
    if (piece && piece.at + piece.s.length === out.length) piece.s += s;
    else if (token !== null && !piece) {
      const fresh = { token, at: out.length, s };
      last.set(token, fresh);
      raw.push(fresh);
    }
    out += s;
  };
  const space = (owner: number | null): void => {
    if (out !== '' && !out.endsWith('\n')) {
      pendingSpace = true;
      spaceOwner = owner;
    }
  };
  tokens.forEach((t, token) => {
    if (t.kind === 'br') {
      out += '\n';
      pendingSpace = false;
    } else if (t.kind === 'sep') {
      space(null);
    } else {
      t.s.split(CSS_SPACE).forEach((word, i) => {
        if (i > 0) space(token);
        if (word === '') return;
        if (pendingSpace) emit(spaceOwner, ' ');
        pendingSpace = false;
        emit(token, word);
      });
    }
  });
  // Only <br> makes leading or trailing newlines, and it is in no piece.
  const from = /^\n*/.exec(out)?.[0].length ?? 0;
  const to = Math.max(from, out.length - (/\n*$/.exec(out)?.[0].length ?? 0));
  return clipPieces(out, raw, from, to);
}

function clipPieces(out: string, raw: readonly TextPiece[], from: number, to: number): { text: string; pieces: TextPiece[] } {
  const pieces: TextPiece[] = [];
  for (const p of raw) {
    const a = Math.max(p.at, from);
    const b = Math.min(p.at + p.s.length, to);
    if (a < b) pieces.push({ token: p.token, at: a - from, s: out.slice(a, b) });
  }
  return { text: out.slice(from, to), pieces };
}

export function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
