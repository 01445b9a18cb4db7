/**
 * A document's bibliographic properties (authors, date) read from what its file says of itself:
 * the PDF Info dictionary or XMP, a DOCX's docProps/core.xml. Pure parsing of those raw strings, so
 * every extractor reads them alike and the bibliography gets names and ISO dates, never file-system
 * times.
 */

export interface DocumentProperties {
  /** As written, one entry a person or organisation ("Smith, Jane", "World Health Organization"). */
  authors: string[];
  /** ISO 8601 calendar date, as precise as the file says: YYYY, YYYY-MM or YYYY-MM-DD. */
  published: string | null;
}

// Names that office software and PDF printers write when nobody filled in the author: citing
// "User, M. O." would be worse than citing no author.
const PLACEHOLDER_AUTHOR =
  /^(?:microsoft office user|office user|windows user|user|owner|admin(?:istrator)?|author|unknown|anonymous|default|test|root|guest|n\/?a|none|-+)$/i;

const MAX_AUTHORS = 50;
const MAX_AUTHOR_LENGTH = 200;

/**
 * The authors named in one property value. A list is split on semicolons, on " and " / "&", or on
 * commas when every piece is itself a multi-word name; "Smith, Jane" stays one inverted name.
 */
export function parseAuthors(raw: string | readonly string[] | null | undefined): string[] {
  if (raw === null || raw === undefined) return [];
  const values = typeof raw === 'string' ? [raw] : raw;
  const out: string[] = [];
  for (const value of values) {
    for (const name of splitNames(value)) {
      const clean = name.replace(/\s+/g, ' ').trim().replace(/^[,;&]+|[,;&]+$/g, '').trim();
      if (clean.length === 0 || clean.length > MAX_AUTHOR_LENGTH || PLACEHOLDER_AUTHOR.test(clean)) continue;
      if (!out.includes(clean)) out.push(clean);
      if (out.length >= MAX_AUTHORS) return out;
    }
  }
  return out;
}

function splitNames(value: string): string[] {
  const text = value.replace(/\s+/g, ' ').trim();
  if (text.length === 0) return [];
  if (text.includes(';')) return text.split(';');
  const joined = text.split(/\s+(?:and|&)\s+/i);
  return joined.flatMap((part) => {
    const pieces = part.split(',').map((p) => p.trim()).filter((p) => p.length > 0);
    // "Jane Smith, John Doe" lists two people; "Smith, Jane" is one inverted name.
    return pieces.length > 1 && pieces.every((p) => p.includes(' ')) ? pieces : [part];
  });
}

/**
 * An ISO date from a PDF date string ("D:20230115093000+01'00'") or a W3C date-time
 * ("2023-01-15T09:30:00Z", "2023-01", "2023"). Impossible dates give null.
 */
export function parseDocumentDate(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  // PDF dates are digits run together, usually behind "D:" (some writers drop the prefix).
  const pdf = text.startsWith('D:') || /^\d{6}/.test(text) ? /^(?:D:)?(\d{4})(\d{2})?(\d{2})?/.exec(text) : null;
  const w3c = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:$|[T ])/.exec(text);
  const m = pdf ?? w3c;
  if (!m) return null;
  const year = Number(m[1]);
  if (year < 1000 || year > 9999) return null;
  const month = m[2] === undefined ? null : Number(m[2]);
  const day = m[3] === undefined ? null : Number(m[3]);
  if (month === null) return String(year);
  if (month < 1 || month > 12) return String(year);
  const ym = `${year}-${String(month).padStart(2, '0')}`;
  if (day === null) return ym;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return ym;
  return `${ym}-${String(day).padStart(2, '0')}`;
}

/** Properties worth storing: at least an author or a date. */
export function hasProperties(p: DocumentProperties | undefined): p is DocumentProperties {
  return p !== undefined && (p.authors.length > 0 || p.published !== null);
}
