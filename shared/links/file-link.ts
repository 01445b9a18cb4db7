/**
 * Links for readers without Evidence Desk: the original file as a file:// URL, with `#page=N` for a
 * PDF (what browsers' and most PDF readers' viewers understand), and the place in words for the
 * others (a text file's line, a document's paragraph). A file that is gone gets words instead of a
 * dead link. Pure: paths are turned into URLs by hand (POSIX and Windows), no Node.
 */

/** A local path as a file:// URL: each segment percent-encoded, Windows drives and UNC shares kept. */
export function fileUrl(path: string): string {
  let p = path.replace(/\\/g, '/');
  let host = '';
  if (p.startsWith('//')) {
    // \\server\share\x → file://server/share/x
    const rest = p.slice(2);
    const slash = rest.indexOf('/');
    host = slash < 0 ? rest : rest.slice(0, slash);
    p = slash < 0 ? '/' : rest.slice(slash);
  } else if (/^[A-Za-z]:\//.test(p)) p = `/${p}`;
  const encoded = p
    .split('/')
    .map((seg, i) => (i === 1 && /^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg)))
    .join('/');
  return `file://${encodeURIComponent(host)}${encoded}`;
}

export interface FileLink {
  /** The URL to put in a link; null when there is no file to point at. */
  href: string | null;
  /** What a reader is told beside or instead of the link. */
  words: string;
}

export const FILE_GONE_WORDS = 'file moved or deleted';

/**
 * The file link of a citation's source: `health` is the source's at export or at the time of asking;
 * a missing file, or one the workspace knows no path for, gets words only.
 */
export function fileLinkFor(source: { path: string | null; kind: string; health: string }, place: { unit: 'page' | 'block' | 'line'; at: number; endAt?: number } | null): FileLink {
  if (source.health === 'missing') return { href: null, words: FILE_GONE_WORDS };
  if (!source.path) return { href: null, words: 'no file path recorded' };
  const url = fileUrl(source.path);
  const changed = source.health === 'modified' ? ' (the file has changed since it was verified)' : '';
  if (!place) return { href: url, words: `${source.path}${changed}` };
  if (place.unit === 'page' && source.kind === 'pdf') return { href: `${url}#page=${place.at}`, words: `${source.path}, p. ${place.at}${changed}` };
  if (place.unit === 'line') {
    const lines = place.endAt !== undefined && place.endAt !== place.at ? `lines ${place.at}–${place.endAt}` : `line ${place.at}`;
    return { href: url, words: `${source.path}:${place.at} (${lines})${changed}` };
  }
  return { href: url, words: `${source.path}, ¶ ${place.at}${changed}` };
}
