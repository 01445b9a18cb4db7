/**
 * An evidence-ledger JSON: entries of { claim_text, verdict, evidence_snippet, source_document:
 * { filename, page_number } }, as a bare array or under `entries` / `ledger` / `claims` /
 * `evidence_ledger`, optionally beside `question` and `answer`. An entry may instead list several
 * pieces of evidence under `evidence: [{ evidence_snippet | snippet, source_document }]`. The
 * ledger's own verdict is kept as a note: the verifier decides the verdict again.
 */
import { compact, fileNameOf, isPlainObject, pageOrLabel, positiveInt, str, type ClaimedLocator, type ImportedAnswer, type ImportedCitation, type ParseOutcome, type SourceRef } from './model.ts';

const ENTRY_KEYS = ['entries', 'ledger', 'claims', 'evidence_ledger', 'items'] as const;

function entriesOf(json: unknown): { entries: Record<string, unknown>[]; top: Record<string, unknown> | null } | null {
  const looksLikeLedger = (xs: unknown[]): boolean => xs.length > 0 && xs.some((e) => isPlainObject(e) && typeof e.claim_text === 'string');
  if (Array.isArray(json)) return looksLikeLedger(json) ? { entries: json.filter(isPlainObject), top: null } : null;
  if (!isPlainObject(json)) return null;
  for (const key of ENTRY_KEYS) {
    const v = json[key];
    if (Array.isArray(v) && looksLikeLedger(v)) return { entries: v.filter(isPlainObject), top: json };
  }
  return null;
}

function sourceOf(doc: unknown): { ref: SourceRef; locator: ClaimedLocator } {
  const ref: SourceRef = {};
  const locator: ClaimedLocator = {};
  if (typeof doc === 'string') {
    const file = fileNameOf(doc);
    if (file) ref.file = file;
    return { ref, locator };
  }
  if (!isPlainObject(doc)) return { ref, locator };
  const file = str(doc.filename) ?? str(doc.file_name) ?? str(doc.file) ?? str(doc.path) ?? str(doc.url);
  const name = file ? fileNameOf(file) : undefined;
  if (name) ref.file = name;
  const title = str(doc.title) ?? str(doc.name);
  if (title) ref.title = title;
  const sha = str(doc.sha256);
  if (sha && /^[0-9a-fA-F]{64}$/.test(sha)) ref.sha256 = sha.toLowerCase();
  const given = pageOrLabel(doc.page_number ?? doc.page);
  const page = given.page;
  if (page !== undefined) locator.page = page;
  else if (given.pageLabel !== undefined) locator.pageLabel = given.pageLabel;
  const pageEnd = positiveInt(doc.page_end) ?? positiveInt(doc.end_page_number);
  if (pageEnd !== undefined && page !== undefined && pageEnd > page) locator.pageEnd = pageEnd;
  const section = str(doc.section);
  if (section) locator.section = section;
  return { ref, locator };
}

export function parseLedger(json: unknown): ParseOutcome {
  const found = entriesOf(json);
  if (!found) return { kind: 'not-mine' };
  const citations: ImportedCitation[] = [];
  const claims: string[] = [];
  found.entries.forEach((entry, i) => {
    const claim = typeof entry.claim_text === 'string' ? entry.claim_text.trim() : '';
    const id = str(entry.claim_id) ?? str(entry.id) ?? (typeof entry.claim_id === 'number' ? String(entry.claim_id) : undefined);
    const baseMarker = id ?? String(i + 1);
    const verdict = str(entry.verdict);
    const confidence = typeof entry.confidence === 'number' ? String(entry.confidence) : str(entry.confidence);
    const pieces: Record<string, unknown>[] = Array.isArray(entry.evidence) && entry.evidence.some(isPlainObject) ? entry.evidence.filter(isPlainObject) : [entry];
    const markers: string[] = [];
    pieces.forEach((piece, k) => {
      const marker = pieces.length > 1 ? `${baseMarker}.${k + 1}` : baseMarker;
      markers.push(marker);
      const snippet = str(piece.evidence_snippet) ?? str(piece.snippet) ?? str(piece.quote) ?? null;
      const { ref, locator } = sourceOf(piece.source_document ?? piece.source ?? entry.source_document);
      const notes = verdict ? [`the ledger's own verdict: ${verdict}`] : [];
      citations.push(
        compact({
          marker,
          claim,
          quote: snippet,
          context: str(piece.context) ?? null,
          sourceRef: ref,
          locator,
          method: snippet ? ('direct_quote' as const) : ('paraphrase' as const),
          confidence,
          notes: notes.length > 0 ? notes : undefined,
        }),
      );
    });
    if (claim) claims.push(`${claim} ${markers.map((m) => `[${m}]`).join('')}`);
  });
  const top = found.top;
  const answer: ImportedAnswer = {
    format: 'evidence-ledger',
    question: (top && (str(top.question) ?? str(top.query))) ?? null,
    answerText: (top && (str(top.answer) ?? str(top.answer_text))) ?? claims.join('\n'),
    citations,
  };
  return { kind: 'parsed', answer };
}
