/**
 * The cite tool on a shared (PostgreSQL) workspace (issue 13): verified at once as on a local
 * workspace, with the same steps (cite-steps.ts) and the same anchoring code, which reads the
 * member's copy of the shared sources (source-mirror.ts), where the source is also resolved as
 * the local cite resolves it; the write is the store's `citations` area, one transaction, where
 * row-level security decides what the member may write.
 */
import type { CiteInput, CiteResult, FullContext } from '../../../shared/contract/citation-schemas.ts';
import type { EvidenceStore } from '../store/evidence-store.ts';
import { SourceMirror } from '../store/source-mirror.ts';
import { SourceResolver } from '../verification/source-resolver.ts';
import { Verifier } from '../verification/verifier.ts';
import { CiteHints } from './cite-hints.ts';
import { citePlan, citeReply, fullContext, newCite, relatedMissing, verifierInput } from './cite-steps.ts';
import type { SharedCitationReads } from './shared-citation-reads.ts';
import { resolveIdentifier } from './source-identifier.ts';

export class SharedCiteService {
  private readonly evidence: EvidenceStore;
  private readonly reads: SharedCitationReads;
  private readonly defaults: () => FullContext;
  /** Made at the first cite: a server that only reads never builds the copy. */
  private parts: { mirror: SourceMirror; verifier: Verifier; hints: CiteHints; resolver: SourceResolver } | null = null;

  constructor(evidence: EvidenceStore, reads: SharedCitationReads, defaults: () => FullContext) {
    this.evidence = evidence;
    this.reads = reads;
    this.defaults = defaults;
  }

  private made() {
    if (!this.parts) {
      const mirror = new SourceMirror(this.evidence);
      this.parts = { mirror, verifier: new Verifier(mirror.anchoring, mirror.search), hints: new CiteHints(mirror.anchoring, mirror.search), resolver: new SourceResolver(mirror.anchoring) };
    }
    return this.parts;
  }

  /** Builds the copy and reads the shared sources' rows, so a first cite finds them there. */
  async warm(): Promise<void> {
    await this.made().mirror.refresh();
  }

  async cite(input: CiteInput): Promise<CiteResult> {
    const ctx = fullContext(input.context, this.defaults());
    const plan = citePlan(input);
    const { mirror, verifier, hints, resolver } = this.made();
    const [exists, custom] = await Promise.all([
      Promise.all(plan.related.map((r) => this.evidence.citations.isCitation(r.citation_id))),
      this.reads.customSource(String(input.source).trim()),
      mirror.refresh(),
    ]);
    // Resolved as the local cite resolves it, over the copy's sources (refreshed just now).
    const target = resolveIdentifier(input.source, {
      anchoring: mirror.anchoring,
      citations: { customSource: () => custom, sourcesByShaPrefix: (prefix) => mirror.sourcesByShaPrefix(prefix) },
      resolver: resolver,
    });
    exists.forEach((ok, i) => {
      if (!ok) throw relatedMissing(plan.related[i]?.citation_id ?? 0, i);
    });
    // The source the verifier will anchor in: the one named, or the one its loose name resolves to.
    const anchorIn = target.kind === 'source' ? target.source.id : target.kind === 'unknown' ? (resolver.resolve(target.ref).source?.id ?? null) : null;
    if (anchorIn !== null) await mirror.load(anchorIn);
    const outcome = target.kind === 'custom' ? null : verifier.verifyCitation(verifierInput(input, plan, target));
    const written = await this.evidence.citations.cite(newCite(input, ctx, plan, target, outcome), new Date().toISOString());
    return citeReply(input, { ...ctx, agent_id: this.evidence.member.login }, plan, target, outcome, written, hints);
  }

  close(): void {
    this.parts?.mirror.close();
    this.parts = null;
  }
}
