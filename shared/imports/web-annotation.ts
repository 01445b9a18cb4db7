/**
 * W3C Web Annotation JSON: one Annotation, an array of them, an AnnotationPage (`items`) or an
 * AnnotationCollection (`first.items`). Each annotation is one citation: the body is the claim,
 * `target.source` names the document, a TextQuoteSelector gives the quote with its prefix and
 * suffix (which choose between repeated occurrences), a TextPositionSelector gives character
 * offsets, and a FragmentSelector `page=N` (or `#page=N` on the source IRI) gives the page.
 */
import { charRange, compact, fileNameOf, isPlainObject, nonNegativeInt, positiveInt, str, type ClaimedLocator, type ImportedAnswer, type ImportedCitation, type ParseOutcome } from './model.ts';

function hasType(x: Record<string, unknown>, type: string): boolean {
  return x.type === type || (Array.isArray(x.type) && x.type.includes(type));
}

function isAnnotation(x: unknown): boolean {
  return isPlainObject(x) && hasType(x, 'Annotation') && x.target !== undefined;
}

function annotationsOf(json: unknown): Record<string, unknown>[] | null {
  if (Array.isArray(json)) return json.length > 0 && json.every(isAnnotation) ? (json as Record<string, unknown>[]) : null;
  if (!isPlainObject(json)) return null;
  if (isAnnotation(json)) return [json];
  if (hasType(json, 'AnnotationPage') && Array.isArray(json.items)) return json.items.filter(isAnnotation) as Record<string, unknown>[];
  if (hasType(json, 'AnnotationCollection')) {
    const first = json.first;
    if (isPlainObject(first) && Array.isArray(first.items)) return first.items.filter(isAnnotation) as Record<string, unknown>[];
    if (Array.isArray(json.items)) return json.items.filter(isAnnotation) as Record<string, unknown>[];
    return [];
  }
  return null;
}

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  const bodies = Array.isArray(body) ? body : [body];
  const texts = bodies
    .filter(isPlainObject)
    .filter((b) => b.purpose !== 'tagging' && typeof b.value === 'string')
    .map((b) => String(b.value).trim());
  return texts.join(' ').trim();
}

/** Refinements deeper than this are not followed: real ones are one or two deep. */
const MAX_SELECTORS = 1_000;

/**
 * The target's selectors and their refinements, in document order, walked without recursion: a
 * refinedBy chain thousands deep must not overflow the stack.
 */
function selectorsOf(target: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const stack: unknown[] = [target.selector];
  let steps = 0;
  while (stack.length > 0 && steps++ < MAX_SELECTORS * 4 && out.length < MAX_SELECTORS) {
    const s = stack.pop();
    if (Array.isArray(s)) for (let i = s.length - 1; i >= 0; i--) stack.push(s[i]);
    else if (isPlainObject(s)) {
      out.push(s);
      if (s.refinedBy !== undefined) stack.push(s.refinedBy);
    }
  }
  return out;
}

function pageFromFragment(fragment: string): number | undefined {
  const m = /(?:^|[#&])page=(\d+)/.exec(fragment);
  return m ? positiveInt(m[1]) : undefined;
}

export function parseWebAnnotation(json: unknown): ParseOutcome {
  const annotations = annotationsOf(json);
  if (!annotations) return { kind: 'not-mine' };
  const citations: ImportedCitation[] = [];
  annotations.forEach((a, i) => {
    const targets = Array.isArray(a.target) ? a.target : [a.target];
    targets.forEach((t, k) => {
      const marker = targets.length > 1 ? `${i + 1}.${k + 1}` : String(i + 1);
      const target: Record<string, unknown> = typeof t === 'string' ? { source: t } : isPlainObject(t) ? t : {};
      const source = str(target.source) ?? str(target.id) ?? '';
      const locator: ClaimedLocator = {};
      const notes: string[] = [];
      const sourcePage = pageFromFragment(source);
      if (sourcePage !== undefined) locator.page = sourcePage;
      let quote: string | null = null;
      let prefix: string | undefined;
      let suffix: string | undefined;
      for (const s of selectorsOf(target)) {
        if (hasType(s, 'TextQuoteSelector') && typeof s.exact === 'string' && s.exact.trim()) {
          quote = s.exact;
          prefix = str(s.prefix) ?? prefix;
          suffix = str(s.suffix) ?? suffix;
        } else if (hasType(s, 'TextPositionSelector')) {
          const range = charRange(nonNegativeInt(s.start), nonNegativeInt(s.end));
          delete locator.charStart;
          delete locator.charEnd;
          Object.assign(locator, range);
        } else if (hasType(s, 'FragmentSelector') && typeof s.value === 'string') {
          const page = pageFromFragment(s.value);
          if (page !== undefined) locator.page = page;
        }
      }
      if (quote === null) notes.push('the annotation has no TextQuoteSelector: there is no quote to find');
      const file = source ? fileNameOf(source) : undefined;
      citations.push(
        compact({
          marker,
          claim: bodyText(a.body ?? a.bodyValue),
          quote,
          context: null,
          sourceRef: compact({ file }),
          locator,
          method: quote ? ('direct_quote' as const) : undefined,
          prefix,
          suffix,
          notes: notes.length > 0 ? notes : undefined,
        }),
      );
    });
  });
  const top = isPlainObject(json) ? json : {};
  const answerText = citations
    .filter((c) => c.claim)
    .map((c) => `${c.claim} [${c.marker}]`)
    .join('\n');
  const answer: ImportedAnswer = {
    format: 'w3c-web-annotation',
    question: str(top.question) ?? str(top.label) ?? null,
    answerText,
    citations,
  };
  return { kind: 'parsed', answer };
}
