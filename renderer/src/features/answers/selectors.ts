// Pure logic of the review desk: labels of statuses and verdicts, locators as people read them,
// the answer text split at its markers, and where the viewer opens for a citation. No DOM here
// (test/unit/answers tests it).
import type { AnswerSummaryData, CitationDetail, MatchPlace, ReviewDecision, StoredClaimedLocator } from '../../../../shared/contract/answer-schemas.ts';
import type { SourceKind } from '../../../../shared/contract/schemas.ts';
import { formatLocator } from '../../../../shared/domain/locator.ts';
import { findMarkers } from '../../../../shared/imports/sentences.ts';
import type { ResultRiskFlagCode, VerificationSummary } from '../../../../shared/verification/result-schema.ts';
import type { CitationStatus } from '../../../../shared/verification/status.ts';
import type { ClaimVerdict } from '../../../../shared/verification/verdict.ts';
import type { JudgeOpinion } from '../../../../shared/verification/judge.ts';
import { judgeSilence, type JudgeVerdict } from '../../../../shared/verification/judge-words.ts';

type MatchMethod = 'exact' | 'normalised' | 'fuzzy';
import type { FlowTarget, Highlight } from '../viewer/viewer-store.ts';

export type Tone = 'ok' | 'info' | 'warn' | 'bad' | 'muted';

export interface Label {
  icon: string;
  /** What it says, as a sentence an analyst reads (issue 12): "Found on another page". */
  text: string;
  /** What it means, for a tooltip. */
  hint: string;
  /** For styling only: the icon and text carry the meaning (never colour alone). */
  tone: Tone;
  /** The name exactly as DESIGN.md §5 spells it (exports, --json): shown in tooltips only. */
  code?: string;
}

/** Where a quote found elsewhere is, in the unit of its document. */
export type PlaceUnit = 'page' | 'block' | 'line';
const ELSEWHERE: Record<PlaceUnit, string> = { page: 'Found on another page', block: 'Found in another paragraph', line: 'Found on other lines' };

const STATUS: Record<CitationStatus, Label> = {
  verified: { icon: '✓', text: 'Found where cited', code: 'verified', hint: 'The quote is in the source at the claimed location (or none was claimed).', tone: 'ok' },
  verified_elsewhere: { icon: '↪', text: 'Found on another page', code: 'verified_elsewhere', hint: 'The quote is in the source, but not at the claimed location.', tone: 'info' },
  partial: { icon: '≈', text: 'Only a close match', code: 'partial', hint: 'Only a close match was found (score 75–90%): compare the quote with the found text.', tone: 'warn' },
  not_found: { icon: '✖', text: 'Not in the source', code: 'not_found', hint: 'The source is known, but the quote is not in it.', tone: 'bad' },
  source_unknown: { icon: '?', text: 'Source not in the workspace', code: 'source_unknown', hint: 'No document in the workspace matches the cited source.', tone: 'bad' },
  no_quote: { icon: '∅', text: 'No quote to check', code: 'no_quote', hint: 'The citation gives no quote (paraphrase or inference): judge it from the claim.', tone: 'muted' },
};

const VERDICT: Record<ClaimVerdict, Label> = {
  supported: { icon: '✓', text: 'Backs the claim', code: 'supported', hint: 'The evidence states what the claim says.', tone: 'ok' },
  weak: { icon: '~', text: 'Backs it only in part', code: 'weak', hint: 'The evidence only partly backs the claim.', tone: 'warn' },
  contradicted: { icon: '✖', text: 'Says otherwise', code: 'contradicted', hint: 'The evidence says something else (e.g. another number).', tone: 'bad' },
  not_found: { icon: '?', text: 'No evidence found', code: 'not_found', hint: 'No evidence for the claim was found.', tone: 'bad' },
};

const DECISION: Record<ReviewDecision, Label> = {
  accepted: { icon: '✓', text: 'accepted', hint: 'The reviewer accepted this citation.', tone: 'ok' },
  rejected: { icon: '✖', text: 'rejected', hint: 'The reviewer rejected this citation.', tone: 'bad' },
  flagged: { icon: '⚑', text: 'flagged', hint: 'The reviewer flagged this citation for follow-up.', tone: 'warn' },
};

const METHOD: Record<MatchMethod, Label> = {
  exact: { icon: '=', text: 'Exact match', code: 'exact', hint: 'The quote is in the source character for character.', tone: 'ok' },
  normalised: { icon: '≅', text: 'Same words, other spacing or case', code: 'normalised', hint: 'Found once case, spacing, quotes, dashes or hyphenation are set aside.', tone: 'info' },
  fuzzy: { icon: '≈', text: 'A few characters differ', code: 'fuzzy', hint: 'Found with a few characters changed: the word difference shows which.', tone: 'warn' },
};

const JUDGE: Record<JudgeVerdict, Label> = {
  supported: { icon: '✓', text: 'supported', hint: 'The model judge reads the evidence as supporting the claim.', tone: 'ok' },
  not_supported: { icon: '~', text: 'not supported', hint: 'The model judge reads the evidence as not (fully) backing the claim.', tone: 'warn' },
  contradicted: { icon: '✖', text: 'contradicted', hint: 'The model judge reads the evidence as saying the opposite.', tone: 'bad' },
};

/** A status in words; a quote found elsewhere says where in the document's own unit. */
const RISK_FLAG_WORDS: Record<ResultRiskFlagCode, string> = {
  missing_evidence: 'Evidence missing',
  contradiction: 'Contradicted',
  low_confidence: 'Low confidence',
  conflicting_sources: 'Sources disagree',
  outdated_source: 'Newer source version',
  uncited_sentence: 'Sentence without a citation',
};

/** A run's risk flag in a few words (the code goes in the tooltip). */
export const riskFlagWords = (code: ResultRiskFlagCode): string => RISK_FLAG_WORDS[code];

export const statusLabel = (s: CitationStatus, unit?: PlaceUnit): Label => (s === 'verified_elsewhere' && unit ? { ...STATUS[s], text: ELSEWHERE[unit] } : STATUS[s]);
export const methodLabel = (m: MatchMethod): Label => METHOD[m];

/** The model judge's opinion in words: its verdict and reason, or why it has none. */
export function judgeText(j: JudgeOpinion): { label: Label | null; text: string } {
  if (j.outcome === 'answered' && j.verdict) return { label: JUDGE[j.verdict], text: j.reason ?? '' };
  return { label: null, text: `The model judge ${judgeSilence(j)}; the rules' verdict stands.` };
}
export const verdictLabel = (v: ClaimVerdict): Label => VERDICT[v];
export const decisionLabel = (d: ReviewDecision): Label => DECISION[d];

const VERDICT_ORDER: readonly ClaimVerdict[] = ['supported', 'weak', 'contradicted', 'not_found'];
const TONE_RANK: Record<Tone, number> = { ok: 0, info: 1, muted: 2, warn: 3, bad: 4 };

/** A card's accent: the worse of its status and its verdict. */
export function citationTone(c: CitationDetail): Tone {
  return c.result ? markTone({ status: c.result.status, verdict: c.result.verdict }) : 'muted';
}

/** A marker's accent, from its status and verdict alone (the answer text draws it without the card). */
export function markTone(m: { status: CitationStatus | null; verdict: ClaimVerdict | null }): Tone {
  if (!m.status || !m.verdict) return 'muted';
  const a = STATUS[m.status].tone;
  const b = VERDICT[m.verdict].tone;
  return TONE_RANK[a] >= TONE_RANK[b] ? a : b;
}

export function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** The verdict counts of a run, in the ledger's order, without the zeros. */
export function verdictCounts(summary: VerificationSummary): { verdict: ClaimVerdict; count: number; label: Label }[] {
  return VERDICT_ORDER.flatMap((verdict) => (summary.byVerdict[verdict] > 0 ? [{ verdict, count: summary.byVerdict[verdict], label: VERDICT[verdict] }] : []));
}

/** What an answer is called in the list: the name given to it, else its question, else the file it came from. */
export function answerTitle(a: Pick<AnswerSummaryData, 'question' | 'origin'> & { name?: string | null | undefined }): string {
  if (a.name?.trim()) return a.name.trim();
  if (a.question?.trim()) return a.question.trim();
  if (a.origin.startsWith('import:')) return a.origin.slice('import:'.length);
  return 'Untitled answer';
}

/** Where an answer came from, for the list: "leave.md · markdown", "offline answerer". */
export function answerOrigin(a: Pick<AnswerSummaryData, 'origin' | 'format'>): string {
  if (a.origin.startsWith('import:')) return `${a.origin.slice('import:'.length)} · ${a.format}`;
  if (a.origin === 'offline') return 'built-in offline answerer';
  if (a.origin.startsWith('model:')) return `model ${a.origin.slice('model:'.length)}`;
  if (a.origin.startsWith('agent:')) return `agent session · ${a.origin.slice('agent:'.length)}`;
  return `${a.origin} · ${a.format}`;
}

/** The place a citation claims, as people read it. */
export function claimedText(l: StoredClaimedLocator): string {
  const parts: string[] = [];
  if (l.page !== undefined && l.pageEnd !== undefined && l.pageEnd > l.page) parts.push(`pp. ${l.page}–${l.pageEnd}`);
  else if (l.page !== undefined) parts.push(formatLocator({ page: l.page, ...(l.pageLabel ? { pageLabel: l.pageLabel } : {}) }));
  else if (l.pageLabel) parts.push(`p. ${l.pageLabel}`);
  const rest = formatLocator({
    ...(l.paragraph !== undefined ? { paragraph: l.paragraph } : {}),
    ...(l.line !== undefined ? { line: l.line } : {}),
    ...(l.lineEnd !== undefined ? { lineEnd: l.lineEnd } : {}),
    ...(l.section ? { headingPath: [l.section] } : {}),
  });
  if (rest) parts.push(rest);
  if (l.slide !== undefined) parts.push(`slide ${l.slide}`);
  if (l.sheet !== undefined) parts.push(`sheet ${l.sheet}`);
  if (l.cell !== undefined) parts.push(l.cell.toUpperCase().replace(/\$/g, ''));
  return parts.join(' · ');
}

/** The place a quote was found, as people read it. */
export function foundText(place: MatchPlace, pageLabel: string | null): string {
  const { unit, at, endAt } = place;
  if (unit === 'page') return endAt !== at ? `pp. ${at}–${endAt}` : formatLocator({ page: at, ...(pageLabel ? { pageLabel } : {}) });
  if (unit === 'block') {
    // A slide or a sheet cell is named as such (formatLocator reads its slide, sheet, address and cell).
    if (place.slide !== undefined || place.sheet !== undefined) return formatLocator(place);
    return endAt !== at ? `¶ ${at}–${endAt}` : formatLocator({ paragraph: at, ...(place.cell ? { cell: place.cell } : {}) });
  }
  return formatLocator({ line: at, lineEnd: endAt });
}

/** A piece of the answer text: words, or a group of markers each pointing at its citation. */
export type TextPart = { text: string } | { markers: { label: string; citationId: number | null }[] };

/**
 * The answer text with its marker groups ([1], [S2], [^3], [1, 2]) picked out. Each occurrence of
 * a label takes the next citation with that marker (Markdown makes one citation per occurrence);
 * once they are used up, it points at the first.
 */
export function answerTextParts(text: string, citations: readonly Pick<CitationDetail, 'id' | 'marker'>[]): TextPart[] {
  const queues = new Map<string, number[]>();
  for (const c of citations) queues.set(c.marker, [...(queues.get(c.marker) ?? []), c.id]);
  const used = new Map<string, number>();
  const pick = (label: string): number | null => {
    const ids = queues.get(label);
    if (!ids || ids.length === 0) return null;
    const n = used.get(label) ?? 0;
    used.set(label, n + 1);
    return ids[n] ?? ids[0] ?? null;
  };
  const parts: TextPart[] = [];
  let at = 0;
  let group: { start: number; end: number; markers: { label: string; citationId: number | null }[] } | null = null;
  const flush = () => {
    if (!group) return;
    if (group.start > at) parts.push({ text: text.slice(at, group.start) });
    parts.push({ markers: group.markers });
    at = group.end;
    group = null;
  };
  for (const hit of findMarkers(text)) {
    if (!group || group.start !== hit.start) {
      flush();
      group = { start: hit.start, end: hit.end, markers: [] };
    }
    group.markers.push({ label: hit.label, citationId: pick(hit.label) });
  }
  flush();
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/**
 * The answer text's parts cut into blocks of about `markersPerBlock` marker groups each (issue 16):
 * a block off screen is drawn as its plain text, so 10,000 markers do not become 20,000 elements
 * before the first card shows, and each block is laid out on its own (a change in one does not
 * lay out the whole answer again). A block ends at the line break after its last group, else after
 * the next space, so the next starts a line without a space before it. `plain` is the block's
 * text, markers written as [label].
 */
export function textBlocks(parts: readonly TextPart[], markersPerBlock: number): { parts: TextPart[]; plain: string }[] {
  const blocks: { parts: TextPart[]; plain: string }[] = [];
  let current: TextPart[] = [];
  let plain = '';
  let groups = 0;
  const add = (part: TextPart) => {
    current.push(part);
    plain += 'text' in part ? part.text : part.markers.map((m) => `[${m.label}]`).join('');
  };
  for (const part of parts) {
    if ('markers' in part || groups < markersPerBlock) {
      add(part);
      if ('markers' in part) groups++;
      continue;
    }
    const cut = blockEnd(part.text);
    if (cut > 0) add({ text: part.text.slice(0, cut) });
    blocks.push({ parts: current, plain });
    current = [];
    plain = '';
    groups = 0;
    if (cut < part.text.length) add({ text: part.text.slice(cut) });
  }
  if (current.length > 0) blocks.push({ parts: current, plain });
  return blocks;
}

/** A text cut into pieces of about `size` characters, each ending after a space or a line break. */
export function plainBlocks(text: string, size: number): string[] {
  const blocks: string[] = [];
  const space = /\s+/g;
  let at = 0;
  while (at < text.length) {
    space.lastIndex = at + size;
    const m = at + size < text.length ? space.exec(text) : null;
    const end = m ? m.index + m[0].length : text.length;
    blocks.push(text.slice(at, end));
    at = end;
  }
  return blocks;
}

/** Where a block ends in the text after its last marker group: after a line break, else after the first spaces. */
function blockEnd(text: string): number {
  const line = text.indexOf('\n');
  if (line >= 0) return line + 1;
  const space = /\s+/.exec(text);
  return space ? space.index + space[0].length : text.length;
}

/** What the viewer is asked to show for a citation, and what the analyst is told about it. */
export interface OpenPlan {
  request:
    | { viewer: 'pdf'; sourceId: number; page: number; highlight: Highlight | null; closest?: boolean }
    | { viewer: 'flow'; sourceId: number; kind: SourceKind; target: FlowTarget | null; closest?: boolean }
    | null;
  message: string;
  /** Whether the viewer highlights the quote (else it shows a place, or nothing). */
  highlights: boolean;
}

/** What the bar adds for a PDF quote that runs on: the viewer opens its first page, each page marks its part. */
function runsOnText(place: MatchPlace): string {
  const rest = place.endAt - place.at === 1 ? `its part on p. ${place.endAt} is` : `its parts on pp. ${place.at + 1}–${place.endAt} are`;
  return `Shown from p. ${place.at}; ${rest} highlighted there too (next page ›).`;
}

/** The parts of a place that runs on, when its result kept them (older results did not). */
function parts(place: MatchPlace): Pick<Highlight, 'firstEnd' | 'lastStart'> {
  return place.firstEnd !== undefined && place.lastStart !== undefined ? { firstEnd: place.firstEnd, lastStart: place.lastStart } : {};
}

const PLACED: ReadonlySet<CitationStatus> = new Set(['verified', 'verified_elsewhere', 'partial']);

function claimedTarget(kind: SourceKind, l: StoredClaimedLocator): FlowTarget | null {
  if ((kind === 'docx' || kind === 'html' || kind === 'pptx' || kind === 'xlsx') && l.paragraph !== undefined) return { at: l.paragraph };
  if ((kind === 'text' || kind === 'markdown') && l.line !== undefined) {
    return l.lineEnd !== undefined && l.lineEnd > l.line ? { at: l.line, endAt: l.lineEnd } : { at: l.line };
  }
  return null;
}

/**
 * Where to open a citation. A placed quote opens where it was found, highlighted; a quote that was
 * not placed opens at the claimed location with nothing highlighted, and says so (DESIGN.md §5):
 * an honest failure beats a wrong highlight.
 */
export function openPlan(c: CitationDetail, kind: SourceKind | null, pageOfLabel: (label: string) => number | null = () => null): OpenPlan {
  const r = c.result;
  const fileName = c.source?.fileName ?? c.unknownSource ?? 'the cited source';
  if (!c.source || !kind) {
    return { request: null, highlights: false, message: `“${fileName}” is not a document of this workspace, so there is nothing to open. Add it under Sources, then re-verify.` };
  }
  const sourceId = c.source.id;
  const claimed = claimedText(c.claimedLocator);
  const place = r?.place ?? null;
  if (r && place && PLACED.has(r.status)) {
    const where = foundText(place, r.pageLabel);
    const runsOn = place.unit === 'page' && place.endAt !== place.at ? ` ${runsOnText(place)}` : '';
    const message =
      r.status === 'verified'
        ? `Quote highlighted at ${where}.${runsOn}`
        : r.status === 'verified_elsewhere'
          ? `Found at ${where}, not at the claimed ${claimed || 'location'}: highlighted where it is.${runsOn}`
          : `Closest text (${percent(r.score)}) highlighted at ${where}: it differs from the quote, see the word diff.${runsOn}`;
    if (place.unit === 'page') {
      const highlight: Highlight = { page: place.at, start: place.start, end: place.end };
      if (place.endAt !== place.at) Object.assign(highlight, { endPage: place.endAt }, parts(place));
      return { request: { viewer: 'pdf', sourceId, page: place.at, highlight }, highlights: true, message };
    }
    const target: FlowTarget = { at: place.at, range: { start: place.start, end: place.end } };
    if (place.endAt !== place.at) target.endAt = place.endAt;
    return { request: { viewer: 'flow', sourceId, kind, target }, highlights: true, message };
  }
  const why =
    r?.status === 'no_quote'
      ? 'This citation gives no quote: judge it from the claim.'
      : r
        ? `The quote was not found in ${fileName}.`
        : 'This citation has not been verified yet.';
  if (kind === 'pdf') {
    const { page: number, pageEnd, pageLabel } = c.claimedLocator;
    // A claimed page number is read as the printed label where the source has one, as the verifier reads it.
    const printed = number !== undefined ? pageOfLabel(String(number)) : null;
    const page = printed ?? number ?? pageEnd ?? (pageLabel ? pageOfLabel(pageLabel) : null);
    const at =
      printed !== null && printed !== number
        ? `Showing the page printed “${number}” (p. ${printed} of the file)`
        : page
          ? `Showing the claimed ${claimed}`
          : pageLabel
            ? `This PDF has no page labelled “${pageLabel}”: showing p. 1`
            : 'No page was claimed: showing p. 1';
    return { request: { viewer: 'pdf', sourceId, page: page ?? 1, highlight: null }, highlights: false, message: `${why} ${at}; nothing is highlighted.` };
  }
  const target = claimedTarget(kind, c.claimedLocator);
  const at = target ? `Showing the claimed ${claimed}` : 'No block or line was claimed: showing the document';
  return { request: { viewer: 'flow', sourceId, kind, target }, highlights: false, message: `${why} ${at}; nothing is highlighted.` };
}

/**
 * Where a quote that was not found comes closest, opened and highlighted as such: never as a
 * match. Null when the verifier recorded no closest passage.
 */
export function closestPlan(c: CitationDetail, kind: SourceKind | null): OpenPlan | null {
  const near = c.result?.closest;
  if (!near?.place || !c.source || !kind) return null;
  const place = near.place;
  const where = foundText(place, near.pageLabel);
  const message = `Closest passage, not a match: the quote is not in ${c.source.fileName}; the text that comes nearest (${percent(near.score)}) is outlined at ${where}.`;
  if (place.unit === 'page') {
    return { request: { viewer: 'pdf', sourceId: c.source.id, page: place.at, highlight: { page: place.at, start: place.start, end: place.end }, closest: true }, highlights: true, message };
  }
  const target: FlowTarget = { at: place.at, range: { start: place.start, end: place.end } };
  if (place.endAt !== place.at) target.endAt = place.endAt;
  return { request: { viewer: 'flow', sourceId: c.source.id, kind, target, closest: true }, highlights: true, message };
}

/** The ids of the citations in card order, and the one `by` steps from `current` (clamped). */
export function stepCitation(ids: readonly number[], current: number | null, by: number): number | null {
  if (ids.length === 0) return null;
  const i = current === null ? -1 : ids.indexOf(current);
  if (i === -1) return by >= 0 ? (ids[0] ?? null) : (ids[ids.length - 1] ?? null);
  return ids[Math.max(0, Math.min(ids.length - 1, i + by))] ?? null;
}

/** "3 of 4 reviewed", or nothing before the first decision. */
export function reviewProgress(marks: readonly { decision: string | null }[]): string {
  const done = marks.filter((m) => m.decision).length;
  return done === 0 ? '' : `${done} of ${marks.length} reviewed`;
}

/** A few of a flag's markers for a tooltip ("[13] [14] … and 382 more"), never the whole wall. */
export function markerSample(markers: readonly string[], max = 12): string {
  const shown = markers.slice(0, max).map((m) => `[${m}]`).join(' ');
  return markers.length > max ? `${shown} … and ${markers.length - max} more` : shown;
}
