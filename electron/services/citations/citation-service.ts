/**
 * The citation tools' writes (issue 11): register a source, and cite: verify at once, store the
 * citation with its context in the session's live answer (one transaction, every row in the audit
 * chain), and tell the agent what to do when it failed. Citations are never changed: a correction
 * is a new citation that supersedes the old one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CandidateSource, CiteInput, CiteResult, CitingContext, ClosestPassage, FullContext, RegisteredSource } from '../../../shared/contract/citation-schemas.ts';
import type { z } from 'zod';
import type { RegisterSourceInput } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { ClaimedLocator } from '../../../shared/imports/model.ts';
import { summariseLedger, type CitationStatus, type ClaimVerdict, type LedgerItem } from '../../../shared/verification/index.ts';
import type { IngestService } from '../ingest/ingest-service.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import type { AnswersStore, NewResult } from '../store/answers-store.ts';
import type { CitationsStore, CustomSourceRow, SessionRow } from '../store/citations-store.ts';
import { resultRow } from '../verification/verification-output.ts';
import { referenceText } from '../verification/source-names.ts';
import type { CitationOutcome, Verifier } from '../verification/verifier.ts';
import { SourceResolver } from '../verification/source-resolver.ts';
import { nextStep, redactNotes } from './cite-advice.ts';
import { CiteHints, passageLocator } from './cite-hints.ts';
import { resolveIdentifier, type ResolvedIdentifier } from './source-identifier.ts';
import { webSourcesUnavailable, type WebSourceRegistrar } from './web-source-door.ts';

/** The verifier name of a session's runs: one run per citation, summarising the whole session. */
export const AGENT_VERIFIER = 'evidesk-cite@1';
export const SESSION_FORMAT = 'agent-session';

export interface CitationServiceDeps {
  answers: AnswersStore;
  citations: CitationsStore;
  anchoring: AnchoringStore;
  verifier: Verifier;
  hints: CiteHints;
  ingest: IngestService;
  /** The context a call inherits when it carries none (the door's: the MCP server's session). */
  defaults: () => FullContext;
  /** Registers an http(s) URL as an archived web source; the lead wires the web-sources service here. */
  registerWeb?: WebSourceRegistrar;
  /** Told after every commit, so the live feed reads the new citations at once. */
  committed?: () => void;
}

function toClaimedLocator(l: CiteInput['locator']): { claimed: ClaimedLocator; extras: Record<string, unknown> } {
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

export class CitationService {
  private readonly d: CitationServiceDeps;
  private readonly resolver: SourceResolver;

  constructor(deps: CitationServiceDeps) {
    this.d = deps;
    this.resolver = new SourceResolver(deps.anchoring);
  }

  /** Each session's ledger as of `count` citations: summarising a long session stays cheap. */
  private readonly ledgers = new Map<number, { count: number; items: Map<number, LedgerItem> }>();

  private loadLedger(answerId: number): Map<number, LedgerItem> {
    return new Map(
      this.d.citations.ledger(answerId).map((r) => [r.id, { marker: r.marker, claimKey: claimKey(r.claim), status: r.status as CitationStatus, verdict: r.verdict as ClaimVerdict, confidence: r.confidence }]),
    );
  }

  context(given: CitingContext | undefined): FullContext {
    const base = this.d.defaults();
    return {
      session_id: given?.session_id ?? base.session_id,
      agent_id: given?.agent_id ?? base.agent_id,
      user_id: given?.user_id ?? base.user_id,
      project_id: given?.project_id ?? base.project_id,
    };
  }

  resolve(identifier: string | number): ResolvedIdentifier {
    return resolveIdentifier(identifier, { anchoring: this.d.anchoring, citations: this.d.citations, resolver: this.resolver });
  }

  async registerSource(input: z.output<typeof RegisterSourceInput>): Promise<RegisteredSource> {
    const ctx = this.context(input.context);
    if (input.url !== undefined) return (this.d.registerWeb ?? webSourcesUnavailable)(input.url, ctx);
    if (input.custom !== undefined) return this.registerCustom(input.custom, ctx);
    const file = path.resolve(input.path ?? '');
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) throw new AppError('FILE_MISSING', `path: there is no file at ${file}.`, { field: 'path', path: file });
    if (!stat.isFile()) throw new AppError('INVALID_INPUT', `path: ${file} is not a file; register one document at a time.`, { field: 'path', path: file });
    const result = await this.d.ingest.ingest({ paths: [file] });
    const done = result.files[0];
    if (!done) throw new AppError('UNSUPPORTED_TYPE', `path: ${path.basename(file)} is not a kind of document Evidence Desk reads (PDF, DOCX, HTML, text, Markdown).`, { field: 'path', path: file });
    if (!done.ok) throw new AppError(done.error.code, `path: ${done.error.message}`, { ...done.error.details, field: 'path', path: file });
    const source = this.d.anchoring.source(done.sourceId);
    this.d.answers.transaction(() => this.d.answers.appendAudit('source.register', { sourceId: done.sourceId, by: ctx }, new Date().toISOString()));
    return {
      kind: 'file',
      outcome: done.outcome,
      source_id: done.sourceId,
      sha256: done.sha256,
      file_name: source?.file_name ?? path.basename(file),
      identifier: String(done.sourceId),
      page_count: source?.page_count ?? null,
      restricted: source?.restricted === 1,
      notes: done.warnings.map((w) => w.message),
    };
  }

  private registerCustom(c: { identifier: string; description: string; kind: CustomSourceRow['kind'] }, ctx: FullContext): RegisteredSource {
    const now = new Date().toISOString();
    if (/^\d+$/.test(c.identifier)) throw new AppError('INVALID_INPUT', 'custom.identifier: a custom source needs a name, not a bare number (numbers are source ids).', { field: 'custom.identifier' });
    const { row, added } = this.d.answers.transaction(() => {
      const existing = this.d.citations.customSource(c.identifier);
      if (existing) return { row: existing, added: false };
      const row = this.d.citations.insertCustomSource(c, now);
      this.d.answers.appendAudit('source.register', { customSourceId: row.id, by: ctx }, now);
      return { row, added: true };
    });
    const notes = ['citations of a custom source are recorded as given: they cannot be quote-checked'];
    if (!added && row.description !== c.description) notes.push(`already registered with another description ("${row.description.slice(0, 200)}"); that one stays`);
    return { kind: 'custom', outcome: added ? 'added' : 'existing', source_id: null, sha256: null, file_name: null, identifier: row.identifier, page_count: null, restricted: false, notes };
  }

  /** The session's row, created with its live answer on first use (inside the caller's transaction). */
  private sessionFor(ctx: FullContext, now: string): SessionRow {
    const existing = this.d.citations.session(ctx.session_id);
    if (existing) return existing;
    const answerId = this.d.answers.insertAnswer(
      {
        format: SESSION_FORMAT,
        question: `Agent session ${ctx.session_id}`,
        answerText: `Citations made by ${ctx.agent_id} for ${ctx.user_id} (project ${ctx.project_id}) in session ${ctx.session_id}, as the agent made them.`,
        origin: `agent:${ctx.agent_id}`,
        raw: null,
      },
      now,
    );
    return this.d.citations.insertSession({ session_key: ctx.session_id, answer_id: answerId, agent_id: ctx.agent_id, user_id: ctx.user_id, project_id: ctx.project_id }, now);
  }

  async cite(input: CiteInput): Promise<CiteResult> {
    const ctx = this.context(input.context);
    const related = input.related ?? [];
    const supersedes = related.filter((r) => r.relation === 'supersedes');
    if (supersedes.length > 1) throw new AppError('INVALID_INPUT', 'related: a citation supersedes at most one earlier citation.', { field: 'related' });
    related.forEach((r, i) => {
      if (!this.d.citations.isCitation(r.citation_id)) {
        throw new AppError('CITATION_NOT_FOUND', `related.${i}.citation_id: there is no citation ${r.citation_id} in this workspace.`, { field: `related.${i}.citation_id` });
      }
    });
    const supersedesId = supersedes[0]?.citation_id ?? null;
    const quote = input.verbatim_quote !== undefined && input.verbatim_quote.trim().length > 0 ? input.verbatim_quote : null;
    const target = this.resolve(input.source);
    const { claimed, extras } = toClaimedLocator(input.locator);
    const sourceRow: SourceRefRow | null = target.kind === 'source' ? target.source : null;
    const restricted = sourceRow?.restricted === 1;

    let outcome: CitationOutcome | null = null;
    let custom: CustomSourceRow | null = null;
    if (target.kind === 'custom') custom = target.custom;
    else {
      outcome = this.d.verifier.verifyCitation({
        marker: '?',
        claim: input.claim,
        quote,
        context: input.quote_context,
        sourceRef: target.kind === 'unknown' ? target.ref : {},
        sourceId: sourceRow?.id ?? null,
        locator: claimed,
        notes: target.notes,
      });
    }

    const now = new Date().toISOString();
    const details = {
      quoteLanguage: input.quote_language ?? null,
      relevanceReasoning: input.relevance_reasoning ?? null,
      related,
      locator: extras,
      sourceGiven: String(input.source),
    };
    const customNote = custom ? `${custom.identifier} is a custom source (${custom.kind}: ${custom.description.slice(0, 120)}); its citations cannot be quote-checked and are recorded as given` : null;
    let nextLedger: SessionLedger | null = null as SessionLedger | null;
    // Agents citing at once share a commit (one fsync); this cite's rows are still all or none.
    const { citationId, marker } = await this.d.answers.transactionGrouped(() => {
      const session = this.sessionFor(ctx, now);
      const ordinal = this.d.citations.citationCount(session.answer_id);
      const marker = String(ordinal + 1);
      const citationId = this.d.answers.insertCitation(
        {
          answerId: session.answer_id,
          ordinal,
          marker,
          claim: input.claim,
          quote,
          context: input.quote_context,
          sourceId: sourceRow?.id ?? null,
          unknownReference: custom ? JSON.stringify({ custom: custom.identifier }) : (outcome?.unknownReference ?? referenceText({ file: String(input.source) })),
          claimedLocator: { ...claimed, ...extras },
          method: input.extraction_method,
          confidence: input.confidence ?? null,
          supersedesId,
        },
        now,
      );
      this.d.citations.insertContext(
        { citationId, sessionId: session.id, agentId: ctx.agent_id, userId: ctx.user_id, projectId: ctx.project_id, customSourceId: custom?.id ?? null, details },
        now,
      );
      const result: NewResult = outcome
        ? resultRow(citationId, outcome)
        : { ...emptyResult(citationId), status: 'no_quote', verdict: 'weak', confidence: 0.2, quote, notes: [customNote ?? ''] };
      // The session's current citations (the new one has no result yet; the one it supersedes has
      // left), from this process's copy while no other process has cited into the session.
      const cached = this.ledgers.get(session.answer_id);
      const items = cached && cached.count === ordinal ? new Map(cached.items) : this.loadLedger(session.answer_id);
      if (supersedesId !== null) items.delete(supersedesId);
      items.set(citationId, { marker, claimKey: claimKey(input.claim), status: result.status as CitationStatus, verdict: result.verdict as ClaimVerdict, confidence: result.confidence });
      const summary = summariseLedger([...items.values()]);
      const runId = this.d.answers.insertRun(session.answer_id, AGENT_VERIFIER, summary.summary, summary.riskFlags, now);
      this.d.answers.insertResult(runId, result, now);
      this.d.answers.appendAudit('citation.cite', { answerId: session.answer_id, citationId, runId, session: ctx.session_id, agent: ctx.agent_id, status: result.status, supersedes: supersedesId }, now);
      // Cites committed with this one read their sessions' ledgers after it: a superseded one may be among them.
      if (supersedesId !== null) this.ledgers.clear();
      nextLedger = { answerId: session.answer_id, count: ordinal + 1, items };
      return { citationId, marker };
    });
    // Kept only once committed: a rolled-back cite leaves the copy as it was.
    if (nextLedger) {
      // A correction may supersede a citation of another session: those copies are read again.
      if (supersedesId !== null) this.ledgers.clear();
      this.ledgers.set(nextLedger.answerId, { count: nextLedger.count, items: nextLedger.items });
    }
    this.d.committed?.();

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
    const probe = quote ?? input.claim;
    if (status === 'partial' && matched) closest = { source_id: matched.source_id, file_name: matched.file_name, locator: matched.locator, text: matched.text };
    if (status === 'not_found' && sourceRow) {
      closest = this.d.hints.closestIn(sourceRow, probe);
      const elsewhere = this.d.hints.closestElsewhere(probe, sourceRow.id);
      if (elsewhere) candidates.push({ source_id: elsewhere.source.id, identifier: elsewhere.source.file_name, title: elsewhere.source.title, why: `the quote's words are on ${elsewhere.passage.locator.page !== null ? `p. ${elsewhere.passage.locator.page}` : 'a passage'} of this source` });
    }
    if (status === 'source_unknown') {
      const elsewhere = quote ? this.d.hints.closestElsewhere(quote, null) : null;
      if (elsewhere) {
        closest = elsewhere.passage;
        candidates.push({ source_id: elsewhere.source.id, identifier: elsewhere.source.file_name, title: elsewhere.source.title, why: `the quote's words are on ${elsewhere.passage.locator.page !== null ? `p. ${elsewhere.passage.locator.page}` : 'a passage'} of this source` });
      }
      for (const c of this.d.hints.candidatesForName(String(input.source))) if (!candidates.some((x) => x.source_id === c.source_id)) candidates.push(c);
    }
    const reasons = custom ? [customNote ?? ''] : redactNotes(outcome?.notes ?? [], restricted);
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
      supersedes: supersedesId,
    };
  }
}

interface SessionLedger {
  answerId: number;
  count: number;
  items: Map<number, LedgerItem>;
}

/** A claim's grouping key, as the ledger summary groups claims (case and spacing aside), worked out once. */
function claimKey(claim: string): string {
  return claim.trim().replace(/\s+/g, ' ').toLowerCase();
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
