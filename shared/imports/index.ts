/**
 * Answer imports, detected by content (never by file extension): the first parser that claims a
 * file parses it. Pure: the caller reads the file.
 */
import { AppError } from '../contract/errors.ts';
import { parseAnthropic } from './anthropic.ts';
import { parseLedger } from './ledger.ts';
import { parseMarkdown } from './markdown.ts';
import { ImportedAnswer, IMPORT_FORMATS, type ImportFormat, type ParseContext, type ParseOutcome } from './model.ts';
import { parseNative } from './native.ts';
import { claimFinder, findMarkers, splitSentences } from './sentences.ts';
import { parseWebAnnotation } from './web-annotation.ts';

export * from './model.ts';

const FORMAT_HELP: Record<ImportFormat, string> = {
  'evidence-desk/answer@1': 'Evidence Desk native JSON ("format": "evidence-desk/answer@1")',
  markdown: 'Markdown with [1] / [S1] markers or [^1] footnotes whose definitions carry quotes and sources',
  'anthropic-messages': 'an Anthropic Messages API response with citations',
  'evidence-ledger': 'an evidence-ledger JSON (entries with claim_text, evidence_snippet, source_document)',
  'w3c-web-annotation': 'W3C Web Annotation JSON (TextQuoteSelector / TextPositionSelector)',
};

export function acceptedFormatsText(): string {
  return IMPORT_FORMATS.map((f) => `${f}: ${FORMAT_HELP[f]}`).join('; ');
}

const JSON_PARSERS: readonly [ImportFormat, (json: unknown, context: ParseContext) => ParseOutcome][] = [
  ['evidence-desk/answer@1', parseNative],
  ['anthropic-messages', parseAnthropic],
  ['evidence-ledger', parseLedger],
  ['w3c-web-annotation', parseWebAnnotation],
];

/** A citation without its own claim gets the answer sentence its marker sits in. */
function fillClaims(answer: ImportedAnswer): ImportedAnswer {
  if (answer.citations.every((c) => c.claim.trim())) return answer;
  const claimAt = claimFinder(splitSentences(answer.answerText));
  // The first occurrence of each marker, looked up once per citation rather than searched for.
  const firstHit = new Map<string, number>();
  for (const m of findMarkers(answer.answerText)) if (!firstHit.has(m.label)) firstHit.set(m.label, m.start);
  return {
    ...answer,
    citations: answer.citations.map((c) => {
      if (c.claim.trim()) return c;
      const at = firstHit.get(c.marker);
      const claim = at === undefined ? undefined : claimAt(at);
      return claim !== undefined ? { ...c, claim } : c;
    }),
  };
}

/** More citations than any real answer carries; each is verified and stored, so a file may not ask for millions. */
export const MAX_CITATIONS = 5_000;
/** A claim is a sentence: longer ones (a "sentence" with no full stop in 100 KB) are cut, with a note. */
export const MAX_CLAIM_CHARS = 4_000;
/** Quotes and contexts together, over all citations: what verification and storage take on for one file. */
export const MAX_CITATION_TEXT = 20_000_000;

/**
 * Bounds what one file can make the verifier and the store do: an answer file of a few hundred KB
 * can name one long sentence or one long quote from thousands of markers.
 */
function withinLimits(answer: ImportedAnswer, fileName: string, format: string): ImportedAnswer {
  const n = answer.citations.length;
  const invalid = (why: string): AppError => new AppError('ANSWER_INVALID', `${fileName} looks like ${format}, but ${why}. Split it into smaller answers and import them one by one.`, { fileName, format });
  if (n > MAX_CITATIONS) throw invalid(`it has ${n.toLocaleString('en')} citations, more than the ${MAX_CITATIONS.toLocaleString('en')} one answer may carry`);
  let text = 0;
  for (const c of answer.citations) text += (c.quote?.length ?? 0) + (c.context?.length ?? 0) + (c.prefix?.length ?? 0) + (c.suffix?.length ?? 0);
  if (text > MAX_CITATION_TEXT) throw invalid(`its citations quote ${text.toLocaleString('en')} characters in all, more than the ${MAX_CITATION_TEXT.toLocaleString('en')} one answer may quote`);
  if (answer.citations.every((c) => c.claim.length <= MAX_CLAIM_CHARS)) return answer;
  return {
    ...answer,
    citations: answer.citations.map((c) =>
      c.claim.length <= MAX_CLAIM_CHARS
        ? c
        : { ...c, claim: `${c.claim.slice(0, MAX_CLAIM_CHARS).trimEnd()}…`, notes: [...(c.notes ?? []), `the claim is ${c.claim.length.toLocaleString('en')} characters long; its first ${MAX_CLAIM_CHARS.toLocaleString('en')} are kept`] },
    ),
  };
}

function unknownFormat(fileName: string, why: string): AppError {
  return new AppError(
    'ANSWER_FORMAT_UNKNOWN',
    `${fileName} is not an answer file Evidence Desk can read (${why}). Accepted formats: ${acceptedFormatsText()}. Convert the file to one of them and import it again.`,
    { fileName, accepted: [...IMPORT_FORMATS] },
  );
}

/** Parses an answer file's text into the common model, or throws ANSWER_FORMAT_UNKNOWN / ANSWER_INVALID. */
export function parseAnswer(content: string, fileName: string, context: ParseContext = {}): ImportedAnswer {
  const text = content.replace(/^\uFEFF/, '');
  if (text.trim().length === 0) throw unknownFormat(fileName, 'it is empty');
  const trimmed = text.trimStart();
  let jsonError: string | null = null;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      jsonError = (e as Error).message;
    }
    if (jsonError === null) {
      for (const [format, parse] of JSON_PARSERS) {
        const outcome = parse(json, context);
        if (outcome.kind === 'not-mine') continue;
        if (outcome.kind === 'invalid') {
          throw new AppError('ANSWER_INVALID', `${fileName} looks like ${format}, but ${outcome.message}. Fix the file and import it again.`, { fileName, format });
        }
        return ImportedAnswer.parse(withinLimits(fillClaims(outcome.answer), fileName, format));
      }
      throw unknownFormat(fileName, 'its JSON matches none of them');
    }
  }
  const md = parseMarkdown(text);
  if (md.kind === 'parsed') return ImportedAnswer.parse(withinLimits(fillClaims(md.answer), fileName, 'a Markdown answer'));
  if (md.kind === 'invalid') throw new AppError('ANSWER_INVALID', `${fileName} looks like a Markdown answer, but ${md.message}.`, { fileName, format: 'markdown' });
  throw unknownFormat(fileName, jsonError ? `it starts like JSON but does not parse: ${jsonError}` : 'no citation markers with quote definitions were found');
}
