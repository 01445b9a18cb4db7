/**
 * Where a citation link points in this workspace (issue 17). Reads only: opening a link never
 * writes anything. The link is parsed by the one parser (shared/links) before anything is looked
 * up. Its source is found by SHA-256; when a newer version of that source exists, the quote is
 * looked for there first (the offsets of the old version no longer hold, so the fragment is
 * searched); else the link's own offsets are checked against the stored text and, when they no
 * longer hold the fragment, the fragment is searched in the whole source.
 */
import { findQuote } from '../../../shared/anchoring/find-quote.ts';
import { normaliseWithMap } from '../../../shared/anchoring/normalise.ts';
import type { LinkPlace, LinkResolution } from '../../../shared/contract/link-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { SourceKind } from '../../../shared/contract/schemas.ts';
import { formatLocator } from '../../../shared/domain/locator.ts';
import { linkUnit, parseCitationLink, type CitationLink } from '../../../shared/links/citation-link.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { SegmentRow, SourceRow, SourcesStore } from '../store/sources-store.ts';
import { newestVersion } from '../verification/source-lineage.ts';
import { matchPlace } from '../verification/match-place.ts';

/** The link parsed, or LINK_INVALID naming the field and the reason. */
export function requireLink(raw: string): CitationLink {
  const parsed = parseCitationLink(raw);
  if (!parsed.ok) {
    const { kind, field, reason } = parsed.problem;
    throw new AppError('LINK_INVALID', `This link cannot be opened: ${reason}.`, { kind, ...(field ? { field } : {}) });
  }
  return parsed.link;
}

/** Text compared loosely: normalised as anchoring does (case, whitespace, quotes, ligatures). */
function loose(text: string): string {
  return normaliseWithMap(text).text;
}

/** The place in words, as the desk and the CLI say it: "p. 47 (printed 45)", "¶ 3", "lines 10–12". */
export function placeWords(place: Pick<LinkPlace, 'unit' | 'at' | 'endAt'>, pageLabel: string | null = null): string {
  if (place.unit === 'page') {
    const printed = pageLabel && pageLabel !== String(place.at) ? ` (printed ${pageLabel})` : '';
    return place.endAt !== place.at ? `pp. ${place.at}–${place.endAt}${printed}` : `p. ${place.at}${printed}`;
  }
  if (place.unit === 'block') return place.endAt !== place.at ? `¶ ${place.at}–${place.endAt}` : formatLocator({ paragraph: place.at });
  return formatLocator({ line: place.at, lineEnd: place.endAt });
}

/** The text a place starts with in `segments`, or null when the place lies outside the source. */
function textAt(segments: readonly SegmentRow[], place: LinkPlace, length: number): string | null {
  if (place.unit === 'page' || place.unit === 'block') {
    const seg = segments.find((s) => (place.unit === 'page' ? s.page : s.paragraph) === place.at);
    if (!seg || place.start > seg.text.length) return null;
    if (place.endAt === place.at && place.end > seg.text.length) return null;
    if (place.endAt !== place.at) {
      const last = segments.find((s) => (place.unit === 'page' ? s.page : s.paragraph) === place.endAt);
      if (!last || place.end > last.text.length) return null;
    }
    return seg.text.slice(place.start, place.start + length);
  }
  // Lines: the segment holding the line, then the line's column.
  const seg = segments.find((s) => s.line_start !== null && s.line_start <= place.at && (s.line_end ?? s.line_start) >= place.at);
  if (!seg || seg.line_start === null) return null;
  const lines = seg.text.split('\n');
  const line = lines[place.at - seg.line_start];
  if (line === undefined || place.start > line.length) return null;
  const offset = lines.slice(0, place.at - seg.line_start).reduce((n, l) => n + l.length + 1, 0) + place.start;
  return seg.text.slice(offset, offset + length);
}

interface Found {
  place: LinkPlace;
  pageLabel: string | null;
}

/** The fragment searched in a source's stored text (the claimed page first). */
function search(segments: readonly SegmentRow[], text: string, hintPage: number | undefined): Found | null {
  const match = findQuote(text, segments.map((s) => ({ id: s.id, text: s.text, page: s.page, ordinal: s.ordinal })), hintPage !== undefined ? { hint: { pages: [hintPage] } } : {});
  if (!match) return null;
  const first = segments.find((s) => s.id === match.segmentId);
  const last = match.endSegmentId !== undefined ? segments.find((s) => s.id === match.endSegmentId) : undefined;
  if (!first) return null;
  const place = matchPlace(first, match.start, last, last ? (match.endOffset ?? match.end) : match.end);
  if (!place) return null;
  return { place: { unit: place.unit, at: place.at, endAt: place.endAt, start: place.start, end: place.end }, pageLabel: first.page_label };
}

export interface LinkResolverDeps {
  sources: SourcesStore;
  anchoring: AnchoringStore;
  /** The answer and citation a link names, when this workspace has them. */
  citationOf(answerId: number, marker: string | undefined): number | null;
}

export function resolveLink(raw: string, deps: LinkResolverDeps): LinkResolution {
  const link = requireLink(raw);
  const { sources, anchoring } = deps;
  const row = sources.findBySha(link.sha256);
  const answerId = link.answer ?? null;
  const citationId = answerId !== null ? deps.citationOf(answerId, link.marker) : null;
  if (!row) {
    return {
      state: 'missing',
      sha256: link.sha256,
      text: link.text,
      message: `This workspace has no document with SHA-256 ${link.sha256.slice(0, 12)}…: the cited file was never added here. Find it by its hash in a folder, or open the workspace it was cited from.`,
    };
  }
  const { unit, at, endAt } = linkUnit(link);
  const place: LinkPlace = { unit, at, endAt, start: link.start, end: link.end };
  const result = (source: SourceRow, found: Found, how: 'offsets' | 'searched', newer: boolean, message: string): LinkResolution => ({
    state: 'found',
    sourceId: source.id,
    kind: source.kind as SourceKind,
    fileName: source.file_name,
    sha256: source.sha256,
    place: found.place,
    where: placeWords(found.place, found.pageLabel),
    how,
    newerVersion: newer,
    message,
    answerId: citationId !== null ? answerId : null,
    citationId,
  });

  // A newer version of the document: the quote is looked for there, by its words.
  const newest = newestVersion(anchoring, row.id);
  const newestRow = newest ? sources.get(newest.id) : undefined;
  if (newestRow) {
    const found = search(sources.segments(newestRow.id), link.text, unit === 'page' ? at : undefined);
    if (found) {
      return result(newestRow, found, 'searched', true, `This link was made for an earlier version of ${newestRow.file_name}; its quote was found in the newest version at ${placeWords(found.place, found.pageLabel)} and is marked there.`);
    }
  }

  const segments = sources.segments(row.id);
  const atPlace = textAt(segments, place, link.text.length * 2 + 16);
  if (atPlace === null) {
    throw new AppError('LINK_PLACE_INVALID', `This link points past the end of ${row.file_name}: it has no ${placeWords(place)} at characters ${link.start}–${link.end}.`, { field: unit, sha256: link.sha256 });
  }
  const label = unit === 'page' ? (segments.find((s) => s.page === at)?.page_label ?? null) : null;
  const older = newestRow ? ` A newer version of ${row.file_name} exists, but the quote is not in it: this is the version the link names.` : '';
  if (loose(atPlace).startsWith(loose(link.text))) {
    return result(row, { place, pageLabel: label }, 'offsets', false, `${row.file_name}, ${placeWords(place, label)}: the cited quote is marked.${older}`);
  }
  const found = search(segments, link.text, unit === 'page' ? at : undefined);
  if (found) {
    return result(row, found, 'searched', false, `The link's place no longer holds its quote; the quote was found at ${placeWords(found.place, found.pageLabel)} of ${row.file_name} and is marked there.${older}`);
  }
  throw new AppError('LINK_TEXT_NOT_FOUND', `The quote this link carries (“${link.text.slice(0, 60)}${link.text.length > 60 ? '…' : ''}”) is not in ${row.file_name}${newestRow ? ' nor in its newest version' : ''}.`, { field: 'text', sha256: link.sha256 });
}
