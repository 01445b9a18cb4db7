/**
 * The citation tools' writes (issue 11): register a source, and cite: verify at once, store the
 * citation with its context in the session's live answer (one transaction, every row in the audit
 * chain), and tell the agent what to do when it failed. Citations are never changed: a correction
 * is a new citation that supersedes the old one.
 */
import type { CiteInput, CiteResult, CitingContext, FullContext, RegisteredSource } from '../../../shared/contract/citation-schemas.ts';
import type { z } from 'zod';
import type { RegisterSourceInput } from '../../../shared/contract/citation-schemas.ts';
import type { IngestService } from '../ingest/ingest-service.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { AnswersStore } from '../store/answers-store.ts';
import type { CitationsStore } from '../store/citations-store.ts';
import { recordFileRegistration, registerCustomSource, SessionLedgers, writeCite, type NewCustomSource } from '../store/cite-writes.ts';
import type { Verifier } from '../verification/verifier.ts';
import { SourceResolver } from '../verification/source-resolver.ts';
import type { CiteHints } from './cite-hints.ts';
import { checkCustomIdentifier, customRegistered, ingestOneFile, registeredFile } from './register-steps.ts';
import { citePlan, citeReply, fullContext, newCite, relatedMissing, verifierInput } from './cite-steps.ts';
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
    return fullContext(given, this.d.defaults());
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
    recordFileRegistration(this.d.answers, done.sourceId, ctx, new Date().toISOString());
    return registeredFile(file, done, source);
  }

  private registerCustom(c: NewCustomSource, ctx: FullContext): RegisteredSource {
    checkCustomIdentifier(c.identifier);
    const { row, added } = registerCustomSource(this.d.answers, this.d.citations, c, ctx, new Date().toISOString());
    return customRegistered(row, added, c);
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

