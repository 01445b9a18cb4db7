/**
 * fast-check arbitraries for answer files: arbitrary text and JSON, and structure-aware mutations
 * of the valid seeds (answer-seeds.ts): fields dropped, duplicated or retyped, numbers at the edges
 * of what JSON and JavaScript hold, negative offsets, deep nesting, unicode, lone surrogates and
 * very long strings. Shared by the fuzz tests and bench/fuzz.bench.ts.
 */
import fc from 'fast-check';
import { JSON_SEEDS, MARKDOWN_SEEDS, type JsonValue } from './answer-seeds.ts';

export interface AnswerInput {
  /** How the input was made, for the bench's tally: "json-mutation:anthropic-messages" etc. */
  kind: string;
  content: string;
  fileName: string;
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** One unit of text: any code point, often a lone surrogate, quote marks, brackets and digits a parser keys on. */
const fuzzUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom('[', ']', '^', ':', '"', '“', '”', '«', '»', '„', '—', '-', '\n', '\r', '\t', ' ', '.', '#', 'p. ', '¶', '§', '{', '}', '\\') },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ufeff', '\u2028', '\u200b', 'é', 'e\u0301', '😀', '\ud83d', '𝔸') },
);
export const fuzzString = (maxLength = 60): fc.Arbitrary<string> => fc.string({ unit: fuzzUnit, maxLength });

/** Strings that stress a parser rather than its inputs' meaning. */
const edgeString = fc.oneof(
  fuzzString(),
  fc.constantFrom('', ' ', '\n', '0', '-1', '99999999999999999999', '1e400', 'NaN', 'iv', 'T-3', 'page=3', '#page=0', 'a'.repeat(64), 'Annotation', 'message', 'evidence-desk/answer@1'),
  // Long runs of what patterns backtrack over (blanks, dots, openers), ending in what makes them fail.
  fc
    .tuple(fc.constantFrom('a', ' ', '[1]', '"', 'x. ', '\t', '1', 'a.', '“', '«', '§ ', '[1,', '#'), fc.integer({ min: 1_000, max: 120_000 }), fc.constantFrom('', 'x', '\u2028', '?', ']', '"'))
    .map(([s, n, tail]) => s.repeat(Math.ceil(n / s.length)) + tail),
);

const edgeNumber = fc.oneof(
  fc.constantFrom(-1, -0, 0, 0.5, 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53 + 2, 1e21, 1e300, -1e300, Number.MAX_VALUE, Number.MIN_VALUE, -(2 ** 53)),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Sentinel strings replaced in the serialised text by what JSON.stringify cannot write. */
const RAW = '\u0000RAW:';
function rawToken(kind: string, n: number, key?: string): string {
  return `${RAW}${kind}:${n}:${key === undefined ? '' : encodeURIComponent(key)}\u0000`;
}

/** Deep nesting and number literals beyond a double, written straight into the JSON text. */
function expandRaw(text: string, keys: readonly string[]): string {
  return text.replace(/"\\u0000RAW:([a-z]+):(\d+):([^"\\]*)\\u0000"/g, (_m, kind: string, nText: string, keyText: string) => {
    const n = Number(nText);
    switch (kind) {
      case 'arrays':
        return `${'['.repeat(n)}1${']'.repeat(n)}`;
      case 'objects': {
        const key = JSON.stringify(keyText ? decodeURIComponent(keyText) : (keys[n % Math.max(1, keys.length)] ?? 'a'));
        return `${`{${key}:`.repeat(n)}{}${'}'.repeat(n)}`;
      }
      case 'bignum':
        return `1${'0'.repeat(n % 400)}`;
      case 'exp':
        return `-1e${n}`;
      default:
        return 'null';
    }
  });
}

type Path = (string | number)[];

function pathsOf(value: JsonValue, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

function valueAt(root: JsonValue, path: Path): JsonValue | undefined {
  if (path.length === 0) return root;
  const parent = parentOf(root, path);
  return parent !== null && typeof parent === 'object' ? (parent as Record<string | number, JsonValue>)[path[path.length - 1] as string | number] : undefined;
}

function isNumeric(v: JsonValue | undefined): boolean {
  return typeof v === 'number' || (typeof v === 'string' && /^\s*\d+\s*$/.test(v));
}

function keysOf(value: JsonValue): string[] {
  return [...new Set(pathsOf(value).flatMap((p) => p.filter((k): k is string => typeof k === 'string')))];
}

function parentOf(root: JsonValue, path: Path): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const k of path.slice(0, -1)) node = node !== null && typeof node === 'object' ? (node as Record<string | number, JsonValue>)[k] : undefined;
  return node;
}

export type JsonMutation =
  | { op: 'drop'; at: number }
  | { op: 'duplicate'; at: number; to: number }
  | { op: 'retype'; at: number; value: JsonValue }
  | { op: 'number'; at: number; value: number | string }
  | { op: 'string'; at: number; value: string }
  | { op: 'deep'; at: number; kind: 'arrays' | 'objects'; depth: number }
  | { op: 'rawNumber'; at: number; kind: 'bignum' | 'exp'; n: number };

const jsonMutation: fc.Arbitrary<JsonMutation> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('retype' as const), at: fc.nat(), value: fc.oneof(fc.constantFrom<JsonValue>(null, true, false, [], {}, '', 0), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>) }),
  fc.record({ op: fc.constant('number' as const), at: fc.nat(), value: fc.oneof(edgeNumber, edgeNumber.map(String)) }),
  fc.record({ op: fc.constant('string' as const), at: fc.nat(), value: edgeString }),
  fc.record({ op: fc.constant('deep' as const), at: fc.nat(), kind: fc.constantFrom('arrays' as const, 'objects' as const), depth: fc.integer({ min: 50, max: 20_000 }) }),
  fc.record({ op: fc.constant('rawNumber' as const), at: fc.nat(), kind: fc.constantFrom('bignum' as const, 'exp' as const), n: fc.integer({ min: 20, max: 400 }) }),
);

/** Applies mutations to a deep copy of `seed`; paths are picked modulo the tree's current size. */
export function mutateJson(seed: JsonValue, mutations: readonly JsonMutation[]): JsonValue {
  let root = structuredClone(seed);
  for (const m of mutations) {
    const paths = pathsOf(root);
    // Numbers go where the file has numbers (pages, offsets, indexes), or a digit string stands for one.
    const numeric = m.op === 'number' || m.op === 'rawNumber' ? paths.filter((p) => isNumeric(valueAt(root, p))) : [];
    const pool = numeric.length > 0 ? numeric : paths;
    const path = pool[m.at % pool.length] ?? [];
    const set = (v: JsonValue): void => {
      if (path.length === 0) {
        root = v;
        return;
      }
      const parent = parentOf(root, path) as Record<string | number, JsonValue>;
      parent[path[path.length - 1] as string | number] = v;
    };
    const current = (): JsonValue => (path.length === 0 ? root : ((parentOf(root, path) as Record<string | number, JsonValue>)[path[path.length - 1] as string | number] as JsonValue));
    switch (m.op) {
      case 'drop': {
        if (path.length === 0) break;
        const parent = parentOf(root, path);
        const key = path[path.length - 1] as string | number;
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else if (parent && typeof parent === 'object') delete (parent as Record<string, JsonValue>)[key as string];
        break;
      }
      case 'duplicate': {
        const value = structuredClone(current());
        const parent = path.length > 0 ? parentOf(root, path) : undefined;
        if (Array.isArray(parent)) parent.splice(path[path.length - 1] as number, 0, value);
        else {
          // Copy the value over another node: a field with its sibling's content, a loop of shapes.
          const target = paths[m.to % paths.length] ?? [];
          if (target.length === 0 || target.length > 40) break;
          const tp = parentOf(root, target) as Record<string | number, JsonValue> | undefined;
          if (tp && typeof tp === 'object') tp[target[target.length - 1] as string | number] = value;
        }
        break;
      }
      case 'retype':
        set(m.value);
        break;
      case 'number':
        set(typeof m.value === 'number' && Object.is(m.value, -0) ? 0 : m.value);
        break;
      case 'string':
        set(m.value);
        break;
      case 'deep':
        // Objects nest under the field's own name ({"refinedBy": {"refinedBy": …}}), as a recursive shape would.
        set(rawToken(m.kind, m.depth, typeof path[path.length - 1] === 'string' ? (path[path.length - 1] as string) : undefined));
        break;
      case 'rawNumber':
        set(rawToken(m.kind, m.n));
        break;
    }
  }
  return root;
}

/** Text-level damage on top of a (mutated) file: truncation, a cut-and-paste, an inserted string. */
export type TextMutation = { op: 'truncate'; at: number } | { op: 'insert'; at: number; text: string } | { op: 'cut'; at: number; len: number } | { op: 'repeat'; at: number; len: number; times: number };

const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: edgeString }),
  fc.record({ op: fc.constant('cut' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ op: fc.constant('repeat' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 300 }), times: fc.integer({ min: 2, max: 400 }) }),
);

export function mutateText(text: string, mutations: readonly TextMutation[]): string {
  let s = text;
  for (const m of mutations) {
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    if (m.op === 'truncate') s = s.slice(0, at);
    else if (m.op === 'insert') s = s.slice(0, at) + m.text + s.slice(at);
    else if (m.op === 'cut') s = s.slice(0, at) + s.slice(at + m.len);
    else s = s.slice(0, at) + s.slice(at, at + m.len).repeat(m.times) + s.slice(at);
  }
  return s;
}

const fileName = fc.constantFrom('answer.json', 'answer.md', 'réponse ✓.txt', 'a', 'x'.repeat(200));

/** Any string at all, and strings that start like JSON or Markdown answers. */
export const arbitraryText: fc.Arbitrary<AnswerInput> = fc
  .tuple(fc.constantFrom('', '{', '[', '\ufeff', '[1]: "q" — a.pdf\n', '  ', '---\n'), fuzzString(400), fileName)
  .map(([prefix, body, name]) => ({ kind: 'arbitrary-text', content: prefix + body, fileName: name }));

/** Arbitrary JSON documents, some carrying a format's telltale field. */
export const arbitraryJson: fc.Arbitrary<AnswerInput> = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }),
    fc.constantFrom<Record<string, JsonValue> | null>(null, { format: 'evidence-desk/answer@1' }, { type: 'message' }, { type: 'Annotation' }, { type: 'AnnotationPage' }, { entries: [{ claim_text: 'c' }] }),
    fileName,
  )
  .map(([value, telltale, name]) => {
    const v = telltale && value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, JsonValue>), ...telltale } : value;
    return { kind: 'arbitrary-json', content: JSON.stringify(v) ?? 'null', fileName: name };
  });

/** A valid JSON seed of some format, mutated in its structure and then, sometimes, in its text. */
export const mutatedJsonSeed: fc.Arbitrary<AnswerInput> = fc
  .tuple(fc.nat({ max: JSON_SEEDS.length - 1 }), fc.array(jsonMutation, { minLength: 1, maxLength: 5 }), fc.array(textMutation, { maxLength: 2 }), fileName, fc.boolean())
  .map(([i, mutations, textMutations, name, pretty]) => {
    const seed = JSON_SEEDS[i] ?? JSON_SEEDS[0];
    if (!seed) throw new Error('no seeds');
    const mutated = mutateJson(seed.value, mutations);
    const text = expandRaw(JSON.stringify(mutated, null, pretty ? 2 : undefined) ?? 'null', keysOf(seed.value));
    return { kind: `json-mutation:${seed.format}`, content: mutateText(text, textMutations), fileName: name };
  });

/** A valid Markdown answer with its text damaged. */
export const mutatedMarkdownSeed: fc.Arbitrary<AnswerInput> = fc
  .tuple(fc.nat({ max: MARKDOWN_SEEDS.length - 1 }), fc.array(textMutation, { minLength: 1, maxLength: 5 }), fileName)
  .map(([i, mutations, name]) => ({ kind: 'markdown-mutation', content: mutateText(MARKDOWN_SEEDS[i] ?? '', mutations), fileName: name }));

/** Every kind above, weighted toward the structure-aware mutations. */
export const anyAnswerInput: fc.Arbitrary<AnswerInput> = fc.oneof(
  { weight: 1, arbitrary: arbitraryText },
  { weight: 1, arbitrary: arbitraryJson },
  { weight: 3, arbitrary: mutatedJsonSeed },
  { weight: 2, arbitrary: mutatedMarkdownSeed },
);
