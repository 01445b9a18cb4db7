/**
 * Markdown answers with citation markers. The convention (docs/answer-formats.md says the same):
 *
 *   Question: How much annual leave do employees get?          (optional; or front matter `question:`)
 *
 *   Employees receive 14 days of annual leave [1]. Unused days lapse in March.[^2]
 *
 *   [1]: "14 days of annual leave" — HR_Policy.pdf, p. 12
 *   [^2]: "Unused leave lapses on 31 March" — HR_Policy.pdf, pp. 12–13
 *
 * or a Sources list, usually under a "Sources" / "References" heading:
 *
 *   ## Sources
 *   - [S1] HR_Policy.pdf p. 12: "14 days of annual leave"
 *
 * A definition carries the quote in straight or curly double quotes (or «…»), the source as a file
 * name (matched without case or extension), a title, or a SHA-256, and optionally a locator:
 * `p. 12`, `pp. 12–13`, `page 12`, `p. iv` / `p. T-3` (a printed page label), `lines 10–12`,
 * `¶ 4` / `para 4`, `§ Leave policy`. A definition
 * without a quote is a paraphrase. Each marker occurrence in the text is one citation whose claim is
 * the sentence it sits in (markers removed).
 */
import { compact, fileNameOf, isPageLabel, nonNegativeInt, positiveInt, type ClaimedLocator, type ImportedAnswer, type ImportedCitation, type ParseOutcome, type SourceRef } from './model.ts';
import { claimFinder, findMarkers, splitSentences } from './sentences.ts';

interface Definition {
  label: string;
  body: string;
}

// Lines are split at \n, \r\n and \r only, so a line may hold U+2028/U+2029: every `.` below
// matches them too (the s flag). Without it, `[ \t]*(.*)$` failed at such a character and retried
// each split of the blanks before it: quadratic on a damaged line.
const FOOTNOTE_DEF = /^ {0,3}\[\^([\w-]+)\]:[ \t]*(.*)$/s;
const REFERENCE_DEF = /^ {0,3}(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?\[([A-Za-z]{0,3}\d+)\]:[ \t]*(.*)$/s;
const LIST_DEF = /^ {0,3}(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?\[([A-Za-z]{0,3}\d+)\][ \t]+(.*)$/s;
const SOURCES_HEADING = /^ {0,3}(?:#{1,6}[ \t]*|\*\*)?(?:sources|references|citations|bibliography|evidence|notes|footnotes)\b.*$/is;
// Matched against the line without its trailing whitespace: a lazy capture before `[ \t]*$`
// retries the whole tail at every character, quadratic on a line of a hundred thousand spaces.
const QUESTION_LINE = /^ {0,3}(?:#{1,6}[ \t]*)?(?:\*\*|__)?(?:question|q)(?:\*\*|__)?[ \t]*[:：][ \t]*(?:\*\*|__)?[ \t]*(.+)$/is;
const FILE_LIKE = /\.[A-Za-z0-9]{2,5}$/;

/** Closing marks of each opening quotation mark: “…”, "…", «…», „…“ (or „…”). */
const CLOSERS: Record<string, readonly string[]> = { '“': ['”'], '"': ['"'], '«': ['»'], '„': ['“', '”'] };

/**
 * The quoted spans of a definition, found in one pass. (A regex over the four pairs retried from
 * every opening mark without a closing one: marks × length on a long damaged line.)
 */
function quotedSpans(body: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  // Where each closing mark occurs next: an absent one is absent from every later position too.
  const next = new Map<string, number>();
  const nextOf = (mark: string, from: number): number => {
    const known = next.get(mark);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const at = body.indexOf(mark, from);
    next.set(mark, at);
    return at;
  };
  let i = 0;
  while (i < body.length) {
    const closers = CLOSERS[body[i] ?? ''];
    if (!closers) {
      i++;
      continue;
    }
    const found = closers.map((c) => nextOf(c, i + 1)).filter((j) => j >= 0);
    const j = found.length > 0 ? Math.min(...found) : -1;
    if (j <= i + 1) {
      i++;
      continue;
    }
    const inner = body.slice(i + 1, j);
    // «…» drops the space inside the marks, keeping at least one character, as the regex does.
    const text = body[i] === '«' ? inner.trim() || inner.slice(-1) : inner;
    out.push({ text, start: i, end: j + 1 });
    i = j + 1;
  }
  return out;
}

/** The longest quoted span of a definition, and the definition without it. */
function takeQuote(body: string): { quote: string | null; rest: string } {
  let best: { text: string; start: number; end: number } | null = null;
  for (const span of quotedSpans(body)) {
    if (!best || span.text.length > best.text.length) best = span;
  }
  if (!best || best.text.trim().length === 0) return { quote: null, rest: body };
  return { quote: best.text.trim(), rest: `${body.slice(0, best.start)} ${body.slice(best.end)}` };
}

const RANGE = String.raw`(\d+)(?:\s*(?:-|–|—|to)\s*(\d+))?`;

/**
 * A source and a place take a line: of a longer definition (a damaged file's), only the ends are
 * read, since the locator patterns (§ above all) cost their count × the length to search.
 */
const MAX_SOURCE_TEXT = 2_000;

/** Locator and source reference from what remains of a definition once its quote is taken out. */
export function parseSourceText(text: string): { sourceRef: SourceRef; locator: ClaimedLocator } {
  const half = MAX_SOURCE_TEXT / 2;
  let rest = text.length > MAX_SOURCE_TEXT ? ` ${text.slice(0, half)} ; ${text.slice(-half)} ` : ` ${text} `;
  const locator: ClaimedLocator = {};
  const take = (re: RegExp, fn: (m: RegExpExecArray) => void): void => {
    const m = re.exec(rest);
    if (!m) return;
    fn(m);
    rest = rest.slice(0, m.index) + ' ' + rest.slice(m.index + m[0].length);
  };
  let sha256: string | undefined;
  take(/(?:sha-?256[:=\s]\s*)?\b([0-9a-fA-F]{64})\b/i, (m) => (sha256 = (m[1] ?? '').toLowerCase()));
  take(new RegExp(String.raw`(?:^|[\s,;(])(?:pp?\.|pages?)\s*${RANGE}`, 'i'), (m) => {
    const [page, end] = [positiveInt(m[1]), positiveInt(m[2])];
    if (page === undefined) return;
    locator.page = page;
    if (end !== undefined && end > page) locator.pageEnd = end;
  });
  // A page as printed on it: "p. iv", "p. xxix", "page T-3", "p. A-2".
  if (locator.page === undefined) {
    take(/(?:^|[\s,;(])(?:pp?\.|page)\s*([ivxlcdm]{1,8}|[IVXLCDM]{1,8}|[A-Za-z]{1,3}-?\d{1,5})(?=$|[\s,;:.)])/, (m) => {
      if (m[1] && isPageLabel(m[1])) locator.pageLabel = m[1];
    });
  }
  take(new RegExp(String.raw`(?:^|[\s,;(])(?:lines?|ll?\.)\s*${RANGE}`, 'i'), (m) => {
    const [line, end] = [positiveInt(m[1]), positiveInt(m[2])];
    if (line === undefined) return;
    locator.line = line;
    if (end !== undefined && end > line) locator.lineEnd = end;
  });
  take(/(?:¶|(?:^|[\s,;(])(?:para(?:graph)?\.?))\s*(\d+)/i, (m) => {
    const paragraph = nonNegativeInt(m[1]);
    if (paragraph !== undefined) locator.paragraph = paragraph;
  });
  take(/(?:§|(?:^|[\s,;(])section\s)\s*["“]?([^,;:"”()]+?)["”]?\s*(?=$|[,;:()])/i, (m) => {
    const s = (m[1] ?? '').trim();
    if (s) locator.section = s;
  });
  // What is left names the source: drop labels and separators around it.
  let name = rest
    .replace(/\b(?:source|file|document|doc)\s*[:=]/gi, ' ')
    .replace(/[()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\s—–:,;.-]+|[\s—–:,;-]+$/g, '')
    .trim();
  // "HR_Policy.pdf, p. 12" leaves "HR_Policy.pdf,": the trailing punctuation is gone by now.
  name = name.replace(/^[*_`]+|[*_`]+$/g, '').trim();
  const ref: SourceRef = {};
  if (sha256) ref.sha256 = sha256;
  if (name) {
    const file = fileNameOf(name);
    if (file !== undefined && FILE_LIKE.test(file)) ref.file = file;
    else ref.title = name;
  }
  return { sourceRef: ref, locator };
}

function definitionCitation(def: Definition): Omit<ImportedCitation, 'claim' | 'marker'> {
  const { quote, rest } = takeQuote(def.body);
  // Without a quote, the words before a dash describe the claim; the source follows the last dash.
  const dash = quote === null ? Math.max(rest.lastIndexOf(' — '), rest.lastIndexOf(' – '), rest.lastIndexOf(' -- ')) : -1;
  const { sourceRef, locator } = parseSourceText(dash >= 0 ? rest.slice(dash + 3) : rest);
  const notes: string[] = [];
  if (!sourceRef.sha256 && !sourceRef.file && !sourceRef.title) notes.push(`the definition of [${def.label}] names no source`);
  return compact({
    quote,
    context: null,
    sourceRef,
    locator,
    method: quote ? ('direct_quote' as const) : ('paraphrase' as const),
    notes: notes.length > 0 ? notes : undefined,
  });
}

export function parseMarkdown(content: string): ParseOutcome {
  const trimmed = content.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[{') || trimmed.startsWith('<')) return { kind: 'not-mine' };
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  let question: string | null = null;
  const definitions = new Map<string, Definition>();
  const bodyLines: string[] = [];
  let inSources = false;
  let inFence = false;
  let i = 0;
  // YAML front matter: only `question:` is read.
  if (/^---\s*$/.test(lines[0] ?? '')) {
    const end = lines.findIndex((l, k) => k > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
    if (end > 0) {
      for (const l of lines.slice(1, end)) {
        const m = /^question:\s*(.+)$/is.exec(l.trimEnd());
        if (m?.[1]) question = m[1].replace(/^(['"])(.*)\1$/, '$2');
      }
      i = end + 1;
    }
  }
  let last: Definition | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^ {0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) {
      bodyLines.push(line);
      last = null;
      continue;
    }
    const fn = FOOTNOTE_DEF.exec(line) ?? REFERENCE_DEF.exec(line);
    const list = fn ? null : LIST_DEF.exec(line);
    const isListDef = list !== null && (inSources || quotedSpans(line).length > 0);
    if (fn || isListDef) {
      const m = (fn ?? list) as RegExpExecArray;
      const label = m[1] ?? '';
      last = { label, body: m[2] ?? '' };
      if (!definitions.has(label)) definitions.set(label, last);
      continue;
    }
    // Indented continuation of a definition (footnotes may run over several lines).
    if (last && /^(?: {2,}|\t)\S/.test(line)) {
      last.body += ` ${line.trim()}`;
      continue;
    }
    last = null;
    if (question === null && bodyLines.every((l) => l.trim() === '')) {
      const q = QUESTION_LINE.exec(line.trimEnd());
      if (q?.[1]) {
        question = q[1].replace(/(?:\*\*|__)$/, '').trim();
        continue;
      }
      // Only a heading ending in "?" (before closing #s) is tried: on any other long line the
      // pattern's backtracking costs its leading spaces × its length.
      let end = line.length;
      while (end > 0 && /[\s#]/.test(line[end - 1] ?? '')) end--;
      const h = line[end - 1] === '?' ? /^ {0,3}#{1,6}[ \t]+(.+\?)[ \t]*#*\s*$/.exec(line) : null;
      if (h?.[1]) {
        question = h[1].trim();
        continue;
      }
    }
    if (SOURCES_HEADING.test(line) && !/\[[^\]]+\]/.test(line)) {
      inSources = true;
      continue;
    }
    bodyLines.push(line);
  }
  if (definitions.size === 0) return { kind: 'not-mine' };

  const body = bodyLines.join('\n').trim();
  const sentenceClaim = claimFinder(splitSentences(body));
  const citations: ImportedCitation[] = [];
  const used = new Set<string>();
  // One claim per sentence, shared by its markers (see claimFinder).
  const claims = new Map<string, string>();
  const parsedDefinitions = new Map<string, ReturnType<typeof definitionCitation>>();
  for (const hit of findMarkers(body)) {
    const sentence = sentenceClaim(hit.start) ?? '';
    let claim = claims.get(sentence);
    if (claim === undefined) {
      claim = sentence.replace(/^(?:[-*+]|\d+[.)]|#+)\s+/, '');
      claims.set(sentence, claim);
    }
    const def = definitions.get(hit.label);
    used.add(hit.label);
    if (!def) {
      citations.push({ marker: hit.label, claim, quote: null, context: null, sourceRef: {}, locator: {}, notes: [`marker [${hit.label}] has no definition in the file`] });
      continue;
    }
    let cited = parsedDefinitions.get(hit.label);
    if (!cited) {
      cited = definitionCitation(def);
      parsedDefinitions.set(hit.label, cited);
    }
    citations.push({ marker: hit.label, claim, ...cited });
  }
  for (const def of definitions.values()) {
    if (used.has(def.label)) continue;
    const c = definitionCitation(def);
    citations.push({ marker: def.label, claim: '', ...c, notes: [...(c.notes ?? []), `[${def.label}] is defined but never cited in the text`] });
  }
  const answer: ImportedAnswer = { format: 'markdown', question, answerText: body, citations };
  return { kind: 'parsed', answer };
}
