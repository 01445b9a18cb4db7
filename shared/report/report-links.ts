/** The links of a report citation as the renderers show them: the desk link, the file link or why there is none. */
import { fileLinkFor, type FileLink } from '../links/file-link.ts';
import { matchLinkPlace } from './build.ts';
import type { ReportCitation, ReportSource } from './schema.ts';

export interface CitationLinks {
  /** evidesk://open?… ; null when the quote was not placed. */
  desk: string | null;
  /** The original file: a link with words, or words alone (a missing file: "file moved or deleted"). */
  file: FileLink | null;
}

export function linksOf(c: ReportCitation, source: ReportSource | undefined): CitationLinks {
  const desk = c.link ?? null;
  if (!source) return { desk, file: null };
  const place = c.match ? matchLinkPlace(c.match) : null;
  const file = fileLinkFor(source, place);
  // The model's file link wins where the report has one (a report read back keeps what it said).
  return { desk, file: c.fileLink !== undefined ? { href: c.fileLink, words: file.words } : file };
}
