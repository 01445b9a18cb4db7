/** The native answer format, `evidence-desk/answer@1` (DESIGN.md §6). */
import { z } from 'zod';
import { CitationMethod, ClaimedLocator, compact, isPageLabel, isPlainObject, type ImportedAnswer, type ParseOutcome } from './model.ts';

export const NATIVE_FORMAT = 'evidence-desk/answer@1';

// The native format names no character offsets: those come from other tools' formats. A page may
// be given as printed ("page": "iv", "T-3"): a numeric string is a page number, anything that
// looks like a page label becomes `pageLabel`.
const NativeLocator = ClaimedLocator.omit({ charStart: true, charEnd: true, page: true }).extend({
  page: z
    .union([
      ClaimedLocator.shape.page.unwrap(),
      z
        .string()
        .trim()
        .refine((t) => (/^\d+$/.test(t) ? Number.isSafeInteger(Number(t)) && Number(t) > 0 : isPageLabel(t)), 'a page number or a printed page label such as "iv" or "T-3"'),
    ])
    .optional(),
});

export const NativeAnswer = z.object({
  format: z.literal(NATIVE_FORMAT),
  question: z.string().optional(),
  answer: z.string(),
  citations: z.array(
    z.object({
      marker: z.union([z.string().min(1), z.number().int().nonnegative().transform(String)]),
      claim: z.string().optional(),
      quote: z.string().nullable().optional(),
      context: z.string().nullable().optional(),
      source: z
        .object({ sha256: z.string().regex(/^[0-9a-fA-F]{64}$/).transform((s) => s.toLowerCase()).optional(), file: z.string().min(1).optional(), title: z.string().min(1).optional() })
        .refine((s) => s.sha256 !== undefined || s.file !== undefined || s.title !== undefined, 'a source needs "sha256" or "file"'),
      locator: NativeLocator.optional(),
      confidence: z.union([z.string(), z.number().transform(String)]).optional(),
      method: CitationMethod.optional(),
    }),
  ),
});
export type NativeAnswer = z.infer<typeof NativeAnswer>;

function nativeLocator(l: z.infer<typeof NativeLocator> | undefined): ClaimedLocator {
  if (!l) return {};
  const { page, ...rest } = l;
  if (page === undefined) return rest;
  if (typeof page === 'number') return { ...rest, page };
  return /^\d+$/.test(page) ? { ...rest, page: Number(page) } : { ...rest, pageLabel: page };
}

export function parseNative(json: unknown): ParseOutcome {
  if (!isPlainObject(json) || json.format !== NATIVE_FORMAT) return { kind: 'not-mine' };
  const parsed = NativeAnswer.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`)
      .join('; ');
    return { kind: 'invalid', message: `it says "${NATIVE_FORMAT}" but does not follow it: ${issues}` };
  }
  const a = parsed.data;
  const answer: ImportedAnswer = {
    format: NATIVE_FORMAT,
    question: a.question ?? null,
    answerText: a.answer,
    citations: a.citations.map((c) => {
      const quote = c.quote?.trim() ? c.quote : null;
      return compact({
        marker: c.marker,
        claim: c.claim ?? '',
        quote,
        context: c.context ?? null,
        sourceRef: compact({ sha256: c.source.sha256, file: c.source.file, title: c.source.title }),
        locator: compact({ ...nativeLocator(c.locator) }),
        method: c.method,
        confidence: c.confidence,
      });
    }),
  };
  return { kind: 'parsed', answer };
}
