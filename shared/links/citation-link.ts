/**
 * The citation link (issue 17): evidence named by content, not by path or row id. The source's
 * SHA-256, a place (PDF page, DOCX/HTML block or text line, with `to` when the quote runs on),
 * character offsets from there, and a short fragment of the quote, plus optionally the answer and
 * marker it came from:
 *
 *   evidesk://open?sha256=…&page=47&start=120&end=188&text=annual+leave+carries+over
 *
 * One parser and one formatter for every door (the desktop shell, the browser host's `#/open?…`,
 * reports, the command line). Parsing is strict: an unknown field, a path, a script URL or markup
 * in a value refuses the whole link, so a link can never smuggle anything in. Pure: no DOM, no Node.
 */
import { z } from 'zod';

export const LINK_SCHEME = 'evidesk';
/** A link longer than this is refused before it is read (a real one is a few hundred characters). */
export const MAX_LINK_CHARS = 2048;
/** The quote fragment a link carries: enough to find the quote again, short enough for a URL. */
export const MAX_FRAGMENT_CHARS = 160;
const MAX_MARKER_CHARS = 40;

const Offset = z.coerce.number().int().nonnegative().max(1e9);
const Place = z.coerce.number().int().nonnegative().max(1e7);

/** The fields of a link, as parsed; `page`, `block` and `line` are exclusive. */
export const CitationLink = z
  .strictObject({
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 is 64 hexadecimal digits'),
    page: Place.refine((n) => n >= 1, 'pages count from 1').optional(),
    block: Place.optional(),
    line: Place.refine((n) => n >= 1, 'lines count from 1').optional(),
    /** The last page, block or line of a quote that runs on (`end` counts from its start). */
    to: Place.optional(),
    start: Offset,
    end: Offset,
    text: z.string().min(1, 'the quote fragment is empty').max(MAX_FRAGMENT_CHARS, `a quote fragment holds at most ${MAX_FRAGMENT_CHARS} characters`),
    answer: z.coerce.number().int().positive().max(1e12).optional(),
    marker: z.string().min(1).max(MAX_MARKER_CHARS).regex(/^[\p{L}\p{N}^._ -]+$/u, 'a marker is letters, digits and . _ ^ -').optional(),
  })
  .superRefine((l, ctx) => {
    const places = [l.page, l.block, l.line].filter((v) => v !== undefined).length;
    if (places !== 1) ctx.addIssue({ code: 'custom', path: ['page'], message: 'a link names exactly one of page, block or line' });
    const at = l.page ?? l.block ?? l.line ?? 0;
    if (l.to !== undefined && l.to < at) ctx.addIssue({ code: 'custom', path: ['to'], message: 'the last place comes before the first' });
    if ((l.to === undefined || l.to === at) && l.end < l.start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'the end comes before the start' });
  });
export type CitationLink = z.infer<typeof CitationLink>;

export type LinkUnit = 'page' | 'block' | 'line';

export function linkUnit(l: CitationLink): { unit: LinkUnit; at: number; endAt: number } {
  const unit: LinkUnit = l.page !== undefined ? 'page' : l.block !== undefined ? 'block' : 'line';
  const at = l.page ?? l.block ?? l.line ?? 0;
  return { unit, at, endAt: l.to ?? at };
}

/** Why a link was refused: a reason for people, the field it concerns, and a kind for codes. */
export interface LinkProblem {
  kind: 'malformed' | 'oversized' | 'truncated' | 'unknown_field' | 'invalid_field' | 'unsafe';
  field?: string;
  reason: string;
}

export type LinkParse = { ok: true; link: CitationLink } | { ok: false; problem: LinkProblem };

const FIELD_ORDER = ['sha256', 'page', 'block', 'line', 'to', 'start', 'end', 'text', 'answer', 'marker'] as const;
const KNOWN = new Set<string>(FIELD_ORDER);
const REQUIRED = ['sha256', 'start', 'end', 'text'] as const;

// Markup, or a URL a browser would run or fetch: refused in any value, so no door can be tricked
// into rendering it or following it (quotes are shown as text anyway; this is the second wall).
const MARKUP = /<\s*[a-z!/?]/i;
const SCRIPT_URL = /(?:^|[^a-z])(?:(?:java|vb)script\s*:|data\s*:\s*[a-z-]+\/|file\s*:\s*\/)/i;
// Control characters have no place in a quote fragment (newlines are spaces in fragments).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

function refuse(kind: LinkProblem['kind'], reason: string, field?: string): LinkParse {
  return { ok: false, problem: field === undefined ? { kind, reason } : { kind, reason, field } };
}

/** The query part of a link in any of its forms: evidesk://open?…, #/open?…, or a bare query. */
function queryOf(raw: string): string | LinkParse {
  if (raw.startsWith(`${LINK_SCHEME}:`)) {
    const rest = raw.slice(LINK_SCHEME.length + 1);
    // evidesk://open?… (the form we write) or evidesk:open?… (what some launchers pass on).
    const m = /^(?:\/\/)?open\/?\?(.*)$/s.exec(rest);
    if (!m) return refuse(/^(?:\/\/)?open\/?$/.test(rest) ? 'truncated' : 'unsafe', 'an Evidence Desk link opens evidence only (evidesk://open?…); this one names a path or another action', 'path');
    return m[1] ?? '';
  }
  const hash = /^(?:https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\/?(?:\?[^#]*)?)?#\/open\?(.*)$/s.exec(raw);
  if (hash) return hash[1] ?? '';
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return refuse('unsafe', `this is not an Evidence Desk link (it starts with ${JSON.stringify(raw.slice(0, raw.indexOf(':') + 1))})`);
  return refuse('malformed', 'this is not an Evidence Desk link (it should start with evidesk://open?)');
}

/** Parses a link (evidesk://open?…, or the browser host's …/#/open?…). Never throws. */
export function parseCitationLink(raw: string): LinkParse {
  if (typeof raw !== 'string') return refuse('malformed', 'a link is text');
  const trimmed = raw.trim();
  if (trimmed.length === 0) return refuse('malformed', 'the link is empty');
  if (trimmed.length > MAX_LINK_CHARS) return refuse('oversized', `the link is ${trimmed.length.toLocaleString('en')} characters long; an Evidence Desk link holds at most ${MAX_LINK_CHARS.toLocaleString('en')}`);
  const query = queryOf(trimmed);
  if (typeof query !== 'string') return query;
  const fields: Record<string, string> = {};
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
      value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      return refuse('truncated', 'the link has a broken %-escape (was it cut short?)');
    }
    if (!KNOWN.has(key)) return refuse('unknown_field', `the link has a field Evidence Desk does not know: ${JSON.stringify(key.slice(0, 40))}`, key.slice(0, 40));
    if (Object.hasOwn(fields, key)) return refuse('malformed', `the link gives ${key} twice`, key);
    if (MARKUP.test(value) || SCRIPT_URL.test(value)) return refuse('unsafe', `the link's ${key} carries markup or a script address, so it is not opened`, key);
    if (CONTROL.test(value)) return refuse('invalid_field', `the link's ${key} holds control characters`, key);
    fields[key] = value;
  }
  const missing = REQUIRED.filter((k) => !Object.hasOwn(fields, k));
  if (missing.length > 0) return refuse('truncated', `the link lacks ${missing.join(', ')} (was it cut short?)`, missing[0]);
  for (const k of ['page', 'block', 'line', 'to', 'start', 'end', 'answer'] as const) {
    const v = fields[k];
    if (v !== undefined && !/^\d{1,13}$/.test(v)) return refuse('invalid_field', `the link's ${k} is not a whole number`, k);
  }
  const parsed = CitationLink.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? '');
    return refuse('invalid_field', `the link's ${field || 'fields'}: ${issue?.message ?? 'invalid'}`, field || undefined);
  }
  return { ok: true, link: parsed.data };
}

function enc(value: string): string {
  // encodeURIComponent, with spaces as "+": shorter, and what URLSearchParams writes.
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** The query of a link, fields in a fixed order (so equal links are equal strings). */
export function linkQuery(link: CitationLink): string {
  const parts: string[] = [];
  for (const k of FIELD_ORDER) {
    const v = link[k];
    if (v !== undefined) parts.push(`${k}=${enc(String(v))}`);
  }
  return parts.join('&');
}

/** The link as text; throws if the fields are not a valid link (a bug in the caller). */
export function formatCitationLink(link: CitationLink): string {
  const valid = CitationLink.parse(link);
  return `${LINK_SCHEME}://open?${linkQuery(valid)}`;
}

/** The same link for the browser host: http://127.0.0.1:PORT/#/open?… (the token still required). */
export function browserLinkUrl(link: CitationLink, origin: string): string {
  return `${origin.replace(/\/+$/, '')}/#/open?${linkQuery(CitationLink.parse(link))}`;
}

/**
 * A quote's fragment for a link: its first words up to MAX_FRAGMENT_CHARS, whitespace runs as one
 * space, cut at a word boundary; markup-like "<x" and script-like "javascript:" are cut off before
 * them (a fragment only needs to be found again, not to be whole). Null when nothing usable is left.
 */
export function quoteFragment(quote: string): string | null {
  let t = quote.replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  for (const re of [MARKUP, SCRIPT_URL]) {
    const m = re.exec(t);
    if (m) t = t.slice(0, m.index).trim();
  }
  if (t.length > MAX_FRAGMENT_CHARS) {
    const cut = t.slice(0, MAX_FRAGMENT_CHARS);
    const space = cut.lastIndexOf(' ');
    t = (space > MAX_FRAGMENT_CHARS / 2 ? cut.slice(0, space) : cut).trim();
  }
  return t.length > 0 ? t : null;
}

/** A stored match place (or a report's match) and its quote as a link; null when no fragment is left. */
export function linkForPlace(
  place: { sha256: string; unit: LinkUnit; at: number; endAt: number; start: number; end: number },
  quote: string,
  from?: { answer?: number; marker?: string },
): CitationLink | null {
  const text = quoteFragment(quote);
  if (!text) return null;
  const link: Record<string, unknown> = { sha256: place.sha256, [place.unit]: place.at, start: place.start, end: place.end, text };
  if (place.endAt !== place.at) link.to = place.endAt;
  if (from?.answer !== undefined) link.answer = from.answer;
  if (from?.marker !== undefined && CitationLink.shape.marker.safeParse(from.marker).success) link.marker = from.marker;
  const parsed = CitationLink.safeParse(link);
  return parsed.success ? parsed.data : null;
}
