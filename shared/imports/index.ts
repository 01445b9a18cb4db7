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
import { findMarkers, sentenceAt, splitSentences, stripMarkers } from './sentences.ts';
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
  const sentences = splitSentences(answer.answerText);
  const markers = findMarkers(answer.answerText);
  return {
    ...answer,
    citations: answer.citations.map((c) => {
      if (c.claim.trim()) return c;
      const hit = markers.find((m) => m.label === c.marker);
      const sentence = hit ? sentenceAt(sentences, hit.start) : undefined;
      return sentence ? { ...c, claim: stripMarkers(sentence.text) } : c;
    }),
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
        return ImportedAnswer.parse(fillClaims(outcome.answer));
      }
      throw unknownFormat(fileName, 'its JSON matches none of them');
    }
  }
  const md = parseMarkdown(text);
  if (md.kind === 'parsed') return ImportedAnswer.parse(fillClaims(md.answer));
  if (md.kind === 'invalid') throw new AppError('ANSWER_INVALID', `${fileName} looks like a Markdown answer, but ${md.message}.`, { fileName, format: 'markdown' });
  throw unknownFormat(fileName, jsonError ? `it starts like JSON but does not parse: ${jsonError}` : 'no citation markers with quote definitions were found');
}
