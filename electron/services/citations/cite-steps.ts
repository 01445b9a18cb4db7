/**
 * The steps of a cite around its verification and its write, shared by the local cite service
 * (citation-service.ts, synchronous over SQLite) and the shared workspace's (shared-cite.ts, over
 * PostgreSQL): what the input asks, the verifier's input, the rows to write, and the reply with
 * what to do next. Pure apart from the hints' reads.
 */
import type { CandidateSource, CiteInput, CiteResult, CitingContext, ClosestPassage, FullContext } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { ClaimedLocator } from '../../../shared/imports/model.ts';
import type { ClaimVerdict } from '../../../shared/verification/index.ts';
import type { SourceRefRow } from '../store/anchoring-store.ts';
import type { NewResult } from '../store/answers-store.ts';
import type { CustomSourceRow } from '../store/citations-store.ts';
import type { CiteWritten, NewCite } from '../store/evidence-store.ts';
import { resultRow } from '../verification/verification-output.ts';
import { referenceText } from '../verification/source-names.ts';
import type { CitationInput, CitationOutcome } from '../verification/verifier.ts';
import { nextStep, redactNotes } from './cite-advice.ts';
import { passageLocator, type CiteHints } from './cite-hints.ts';
import type { ResolvedIdentifier } from './source-identifier.ts';

export function toClaimedLocator(l: CiteInput['locator']): { claimed: ClaimedLocator; extras: Record<string, unknown> } {
  const claimed: ClaimedLocator = {};
  const extras: Record<string, unknown> = {};
  if (!l) return { claimed, extras };
  const page = l.page ?? l.page_start;
  if (page !== undefined) claimed.page = page;
  if (l.page_end !== undefined) claimed.pageEnd = l.page_end;
  if (l.page_label !== undefined) claimed.pageLabel = l.page_label;
  if (l.paragraph !== undefined) claimed.paragraph = l.paragraph;
  if (l.line !== undefined) claimed.line = l.line;
  if (l.line_end !== undefined) claimed.lineEnd = l.line_end;
  const section = l.section ?? l.heading;
  if (section !== undefined) claimed.section = section;
  if (l.char_start !== undefined) claimed.charStart = l.char_start;
  if (l.char_end !== undefined) claimed.charEnd = l.char_end;
  if (l.slide !== undefined) claimed.slide = l.slide;
  if (l.sheet !== undefined) claimed.sheet = l.sheet;
  if (l.cell !== undefined) claimed.cell = l.cell;
  if (l.heading !== undefined) extras.heading = l.heading;
  if (l.table !== undefined) extras.table = l.table;
  if (l.free_form !== undefined) extras.freeForm = l.free_form;
  return { claimed, extras };
}

/** What a cite's input asks, checked before anything is read. */
/** The context a call gave, each field it left out taken from the door's `base`. */
export function fullContext(given: CitingContext | undefined, base: FullContext): FullContext {
  return {
    session_id: given?.session_id ?? base.session_id,
    agent_id: given?.agent_id ?? base.agent_id,
    user_id: given?.user_id ?? base.user_id,
    project_id: given?.project_id ?? base.project_id,
  };
}

export interface CitePlan {
  related: NonNullable<CiteInput['related']>;
  supersedesId: number | null;
  quote: string | null;
  claimed: ClaimedLocator;
  extras: Record<string, unknown>;
}

export function citePlan(input: CiteInput): CitePlan {
  const related = input.related ?? [];
  const supersedes = related.filter((r) => r.relation === 'supersedes');
  if (supersedes.length > 1) throw new AppError('INVALID_INPUT', 'related: a citation supersedes at most one earlier citation.', { field: 'related' });
  const quote = input.verbatim_quote !== undefined && input.verbatim_quote.trim().length > 0 ? input.verbatim_quote : null;
  return { related, supersedesId: supersedes[0]?.citation_id ?? null, quote, ...toClaimedLocator(input.locator) };
}

export function relatedMissing(citationId: number, i: number): AppError {
  return new AppError('CITATION_NOT_FOUND', `related.${i}.citation_id: there is no citation ${citationId} in this workspace.`, { field: `related.${i}.citation_id` });
}

function sourceOf(target: ResolvedIdentifier): SourceRefRow | null {
  return target.kind === 'source' ? target.source : null;
}

export function verifierInput(input: CiteInput, plan: CitePlan, target: Exclude<ResolvedIdentifier, { kind: 'custom' }>): CitationInput {
  return {
    marker: '?',
    claim: input.claim,
    quote: plan.quote,
    context: input.quote_context,
    sourceRef: target.kind === 'unknown' ? target.ref : {},
    sourceId: sourceOf(target)?.id ?? null,
    locator: plan.claimed,
    notes: target.notes,
  };
}

function customNote(target: ResolvedIdentifier): string | null {
  if (target.kind !== 'custom') return null;
  const c = target.custom;
  return `${c.identifier} is a custom source (${c.kind}: ${c.description.slice(0, 120)}); its citations cannot be quote-checked and are recorded as given`;
}

/** The rows a verified cite writes. */
export function newCite(input: CiteInput, ctx: FullContext, plan: CitePlan, target: ResolvedIdentifier, outcome: CitationOutcome | null): NewCite {
  const custom: CustomSourceRow | null = target.kind === 'custom' ? target.custom : null;
  const { citationId: _, ...result }: NewResult = outcome
    ? resultRow(0, outcome)
    : { ...emptyResult(0), status: 'no_quote', verdict: 'weak', confidence: 0.2, quote: plan.quote, notes: [customNote(target) ?? ''] };
  return {
    session: { sessionKey: ctx.session_id, agentId: ctx.agent_id, userId: ctx.user_id, projectId: ctx.project_id },
    citation: {
      claim: input.claim,
      quote: plan.quote,
      context: input.quote_context,
      sourceId: sourceOf(target)?.id ?? null,
      unknownReference: custom ? JSON.stringify({ custom: custom.identifier }) : (outcome?.unknownReference ?? referenceText({ file: String(input.source) })),
      claimedLocator: { ...plan.claimed, ...plan.extras },
      method: input.extraction_method,
      confidence: input.confidence ?? null,
      supersedesId: plan.supersedesId,
    },
    customSourceId: custom?.id ?? null,
    details: {
      quoteLanguage: input.quote_language ?? null,
      relevanceReasoning: input.relevance_reasoning ?? null,
      related: plan.related,
      locator: plan.extras,
      sourceGiven: String(input.source),
    },
    result,
  };
}

/** What the agent is told: the verdict, where the quote is, and what to do next when it failed. */
export function citeReply(input: CiteInput, ctx: FullContext, plan: CitePlan, target: ResolvedIdentifier, outcome: CitationOutcome | null, written: CiteWritten, hints: CiteHints): CiteResult {
  const sourceRow = sourceOf(target);
  const custom = target.kind === 'custom' ? target.custom : null;
  const restricted = sourceRow?.restricted === 1;
  const { citationId, marker } = written;
  const status = custom ? 'unverifiable' : (outcome?.status ?? 'source_unknown');
  const verdict: ClaimVerdict = outcome?.verdict ?? 'weak';
  const m = outcome?.match ?? null;
  const matched =
    m && sourceRow
      ? {
          source_id: sourceRow.id,
          file_name: sourceRow.file_name,
          sha256: sourceRow.sha256,
          locator: passageLocator({ page: m.segment.page, page_label: m.segment.pageLabel, paragraph: m.segment.paragraph, line_start: m.segment.lineStart, text: m.segment.text }, m.start, m.endSegment ? m.segment.text.length : m.end),
          method: m.method,
          text: restricted ? null : m.text,
        }
      : null;
  let closest: ClosestPassage | null = null;
  const candidates: CandidateSource[] = [];
  const probe = plan.quote ?? input.claim;
  if (status === 'partial' && matched) closest = { source_id: matched.source_id, file_name: matched.file_name, locator: matched.locator, text: matched.text };
  if (status === 'not_found' && sourceRow) {
    closest = hints.closestIn(sourceRow, probe);
    const elsewhere = hints.closestElsewhere(probe, sourceRow.id);
    if (elsewhere) candidates.push({ source_id: elsewhere.source.id, identifier: elsewhere.source.file_name, title: elsewhere.source.title, why: `the quote's words are on ${elsewhere.passage.locator.page !== null ? `p. ${elsewhere.passage.locator.page}` : 'a passage'} of this source` });
  }
  if (status === 'source_unknown') {
    const elsewhere = plan.quote ? hints.closestElsewhere(plan.quote, null) : null;
    if (elsewhere) {
      closest = elsewhere.passage;
      candidates.push({ source_id: elsewhere.source.id, identifier: elsewhere.source.file_name, title: elsewhere.source.title, why: `the quote's words are on ${elsewhere.passage.locator.page !== null ? `p. ${elsewhere.passage.locator.page}` : 'a passage'} of this source` });
    }
    for (const c of hints.candidatesForName(String(input.source))) if (!candidates.some((x) => x.source_id === c.source_id)) candidates.push(c);
  }
  const reasons = custom ? [customNote(target) ?? ''] : redactNotes(outcome?.notes ?? [], restricted);
  return {
    citation_id: citationId,
    marker: `[${marker}]`,
    session_id: ctx.session_id,
    status,
    verdict,
    score: outcome?.score ?? 0,
    reasons,
    matched,
    next_step: nextStep({
      status,
      verdict,
      citationId,
      marker: `[${marker}]`,
      fileName: sourceRow?.file_name ?? null,
      sourceText: custom?.identifier ?? String(input.source),
      matched: matched?.locator ?? null,
      closest,
      candidates: candidates.length,
      negative: input.extraction_method === 'negative',
    }),
    closest_passage: closest,
    candidate_sources: candidates.slice(0, 8),
    supersedes: plan.supersedesId,
  };
}

function emptyResult(citationId: number): NewResult {
  return {
    citationId,
    status: 'no_quote',
    verdict: 'weak',
    score: 0,
    confidence: 0,
    sourceId: null,
    segmentId: null,
    startOffset: null,
    endSegmentId: null,
    endOffset: null,
    firstEnd: null,
    lastStart: null,
    page: null,
    pageLabel: null,
    matchMethod: null,
    matchedText: null,
    quote: null,
    prefix: null,
    suffix: null,
    notes: [],
  };
}
