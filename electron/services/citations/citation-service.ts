/**
 * The citation tools' writes (issue 11): register a source, and cite: verify at once, store the
 * citation with its context in the session's live answer (one transaction, every row in the audit
 * chain), and tell the agent what to do when it failed. Citations are never changed: a correction
 * is a new citation that supersedes the old one.
 */
import type { CiteInput, CiteResult, CitingContext, FullContext, RegisteredSource } from '../../../shared/contract/citation-schemas.ts';
import type { z } from 'zod';
import type { RegisterSourceInput } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { IngestService } from '../ingest/ingest-service.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { AnswersStore } from '../store/answers-store.ts';
import type { CitationsStore, CustomSourceRow } from '../store/citations-store.ts';
import { SessionLedgers, writeCite } from '../store/cite-writes.ts';
import type { Verifier } from '../verification/verifier.ts';
import { SourceResolver } from '../verification/source-resolver.ts';
import type { CiteHints } from './cite-hints.ts';
import { ingestOneFile, registeredFile } from './register-file.ts';
import { citePlan, citeReply, newCite, relatedMissing, verifierInput } from './cite-steps.ts';
import { resolveIdentifier, type ResolvedIdentifier } from './source-identifier.ts';
import { webSourcesUnavailable, type WebSourceRegistrar } from './web-source-door.ts';

export { AGENT_VERIFIER, SESSION_FORMAT } from '../store/cite-writes.ts';

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

export class CitationService {
  private readonly d: CitationServiceDeps;
  private readonly resolver: SourceResolver;

  constructor(deps: CitationServiceDeps) {
    this.d = deps;
    this.resolver = new SourceResolver(deps.anchoring);
  }

  /** Each session's ledger as of `count` citations: summarising a long session stays cheap. */
  private readonly ledgers = new SessionLedgers();

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
    const { file, done } = await ingestOneFile(this.d.ingest, input.path ?? '');
    const source = this.d.anchoring.source(done.sourceId);
    this.d.answers.transaction(() => this.d.answers.appendAudit('source.register', { sourceId: done.sourceId, by: ctx }, new Date().toISOString()));
    return registeredFile(file, done, source);
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

  async cite(input: CiteInput): Promise<CiteResult> {
    const ctx = this.context(input.context);
    const plan = citePlan(input);
    plan.related.forEach((r, i) => {
      if (!this.d.citations.isCitation(r.citation_id)) throw relatedMissing(r.citation_id, i);
    });
    const target = this.resolve(input.source);
    const outcome = target.kind === 'custom' ? null : this.d.verifier.verifyCitation(verifierInput(input, plan, target));
    const written = await writeCite(this.d.answers, this.d.citations, this.ledgers, newCite(input, ctx, plan, target, outcome), new Date().toISOString());
    this.d.committed?.();
    return citeReply(input, ctx, plan, target, outcome, written, this.d.hints);
  }
}

