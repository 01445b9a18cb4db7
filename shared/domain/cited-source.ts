/**
 * The name a citation gave an unknown source, for people: the stored reference is JSON
 * ({"file":"HR_Policy.pdf"}) or, from older rows, any text; a person reads the file name or title.
 */
export function citedSourceName(reference: string): string {
  let ref: unknown;
  try {
    ref = JSON.parse(reference);
  } catch {
    return reference;
  }
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) return reference;
  const r = ref as Record<string, unknown>;
  if (typeof r.file === 'string' && r.file.trim()) return r.file.trim();
  if (typeof r.title === 'string' && r.title.trim()) return r.title.trim();
  if (typeof r.url === 'string' && r.url.trim()) return r.url.trim();
  if (typeof r.sha256 === 'string') return `a document with SHA-256 ${r.sha256.slice(0, 12)}…`;
  if (typeof r.documentIndex === 'number') return `document ${r.documentIndex + 1} of the request`;
  return 'a source it did not name';
}
