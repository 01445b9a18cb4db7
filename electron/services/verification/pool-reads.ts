/**
 * The verifier over the shared workspace's pool of sources (issue 13): on PostgreSQL the sources
 * and segments a verification needs are read through the store interface's `sources` area into a
 * scratch SQLite copy (PoolMirrorStore), and the unchanged Verifier runs over it, its anchoring
 * and FTS5 narrowing included: the same corpus gives the same verdicts on both engines, and a
 * source another member ingested is found. Only the cited sources' segments (and their later
 * versions', where a citation of an outdated version is also looked for) are copied, each once.
 */
import type { SourcesArea } from '../store/evidence-store.ts';
import { AnchoringStore } from '../store/anchoring-store.ts';
import { PoolMirrorStore } from '../store/pool-mirror-store.ts';
import { SearchStore } from '../store/search-store.ts';
import { Verifier, type CitationInput, type VerifierOptions } from './verifier.ts';

export class PoolVerifier {
  private readonly sources: SourcesArea;
  private readonly options: VerifierOptions;
  private mirror: { store: PoolMirrorStore; anchoring: AnchoringStore; verifier: Verifier } | null = null;

  constructor(sources: SourcesArea, options: VerifierOptions = {}) {
    this.sources = sources;
    this.options = options;
  }

  /** A verifier holding every source's header as the pool has it now and the segments `inputs` cite. */
  async verifierFor(inputs: readonly CitationInput[]): Promise<Verifier> {
    if (!this.mirror) {
      const store = new PoolMirrorStore();
      const anchoring = new AnchoringStore(store.db);
      this.mirror = { store, anchoring, verifier: new Verifier(anchoring, new SearchStore(store.db), this.options) };
    }
    const { store, anchoring, verifier } = this.mirror;
    store.putSources(await this.sources.list());
    const wanted = new Set<number>();
    for (const c of inputs) {
      const id = c.sourceId ?? verifier.resolve(c.sourceRef).source?.id ?? null;
      if (id === null || anchoring.source(id) === undefined) continue;
      // The source and its later versions, breadth first (a guard against a cycle of links).
      const queue = [id];
      while (queue.length > 0 && wanted.size < 100_000) {
        const next = queue.shift() ?? 0;
        if (wanted.has(next)) continue;
        wanted.add(next);
        queue.push(...anchoring.successors(next).map((s) => s.id));
      }
    }
    for (const id of wanted) if (!store.hasSegments(id)) store.putSegments(id, await this.sources.anchoringSegments(id));
    return verifier;
  }

  close(): void {
    this.mirror?.store.close();
    this.mirror = null;
  }
}
