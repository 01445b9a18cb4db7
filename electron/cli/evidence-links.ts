/**
 * Per citation or search hit, what `evidesk verify` and `evidesk search` print about the evidence
 * (issue 17): whether the file is still where the workspace last saw it, its path, the place in
 * words, and the citation link that opens the desk there. Reads only (a stat, no health record).
 */
import fs from 'node:fs';
import type { LinkPlace } from '../../shared/contract/link-schemas.ts';
import { formatCitationLink, linkForPlace } from '../../shared/links/citation-link.ts';
import type { Services } from '../services/create-services.ts';
import { placeWords } from '../services/links/link-resolver.ts';
import type { CheckSourceRow } from '../services/store/evidence-store.ts';
import type { SourceRow } from '../services/store/sources-store.ts';
import { matchPlace } from '../services/verification/match-place.ts';

export interface EvidenceLine {
  /** "[✓]", "[✗ file moved]", "[✗ file changed]" or "[✗ no path]". */
  state: string;
  path: string;
  where: string;
  link: string | null;
}

function fileState(row: Pick<SourceRow, 'current_path' | 'byte_size'>): string {
  if (!row.current_path) return '[✗ no path]';
  const st = fs.statSync(row.current_path, { throwIfNoEntry: false });
  if (!st?.isFile()) return '[✗ file moved]';
  return st.size === row.byte_size ? '[✓]' : '[✗ file changed]';
}

type Where = { page?: number | undefined; paragraph?: number | undefined; line?: number | undefined };

/** A place given by page, block or line with segment offsets, as the viewer's place (line columns for text). */
function placeOf(services: Services, row: SourceRow, at: Where, start: number, end: number): { place: LinkPlace; label: string | null } | null {
  const plain = pageOrBlock(at, start, end);
  if (plain) return { place: plain, label: plain.unit === 'page' ? (services.sources.pageSegment(row.id, plain.at)?.page_label ?? null) : null };
  if (at.line === undefined) return null;
  const line = at.line;
  const seg = services.sources.segments(row.id).find((s) => s.line_start !== null && s.line_start <= line && (s.line_end ?? s.line_start) >= line);
  const placed = seg ? matchPlace(seg, Math.min(start, seg.text.length), undefined, Math.min(end, seg.text.length)) : null;
  return placed ? { place: { unit: placed.unit, at: placed.at, endAt: placed.endAt, start: placed.start, end: placed.end }, label: null } : null;
}

/** A page or a block place, which needs no segment to be read. */
function pageOrBlock(at: Where, start: number, end: number): LinkPlace | null {
  if (at.page !== undefined) return { unit: 'page', at: at.page, endAt: at.page, start, end };
  if (at.paragraph !== undefined) return { unit: 'block', at: at.paragraph, endAt: at.paragraph, start, end };
  return null;
}

/**
 * The same line on a shared workspace (issue 13), from the source's shared record and this
 * member's own current path; no printed page labels or line places, which need the sources area.
 */
export function sharedEvidenceLine(src: CheckSourceRow, currentPath: string | null, at: Where, offsets: { start: number; end: number }, quote: string): EvidenceLine {
  const place = pageOrBlock(at, offsets.start, offsets.end);
  const made = place ? linkForPlace({ sha256: src.sha256, ...place }, quote) : null;
  return {
    state: fileState({ current_path: currentPath, byte_size: src.byte_size }),
    path: currentPath ?? src.file_name,
    where: place ? placeWords(place) : '',
    link: made ? formatCitationLink(made) : null,
  };
}

export function evidenceLine(
  services: Services,
  row: SourceRow | undefined,
  at: { page?: number | undefined; paragraph?: number | undefined; line?: number | undefined },
  offsets: { start: number; end: number },
  quote: string,
  from?: { answer?: number; marker?: string },
): EvidenceLine | null {
  if (!row) return null;
  const placed = placeOf(services, row, at, offsets.start, offsets.end);
  const made = placed ? linkForPlace({ sha256: row.sha256, ...placed.place }, quote, from) : null;
  return {
    state: fileState(row),
    path: row.current_path ?? row.file_name,
    where: placed ? placeWords(placed.place, placed.label) : '',
    link: made ? formatCitationLink(made) : null,
  };
}

/** Two lines: state, path and place; then the link (indented). */
export function evidenceText(prefix: string, e: EvidenceLine): string {
  const head = `${prefix}${e.state} ${e.path}${e.where ? `, ${e.where}` : ''}`;
  return e.link ? `${head}\n${' '.repeat(prefix.length)}${e.link}` : `${head}\n${' '.repeat(prefix.length)}(no place to link to)`;
}
