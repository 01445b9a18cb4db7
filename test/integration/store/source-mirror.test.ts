// A member's copy of the shared sources (source-mirror.ts) anchors as the workspace it copies:
// its full-text index is built for a source only when a search first needs it, and the
// placements, candidates and searches are those of the workspace's own stores.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnchoringStore } from '../../../electron/services/store/anchoring-store.ts';
import { SearchStore } from '../../../electron/services/store/search-store.ts';
import { SourceMirror } from '../../../electron/services/store/source-mirror.ts';
import { Verifier } from '../../../electron/services/verification/verifier.ts';
import { ingestAll } from '../../support/policy-workspace.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { POLICY_PAGES } from '../../support/policy-workspace.ts';
import { openTestServices, type TestServices } from '../../support/workspace.ts';

const MINUTES = Array.from({ length: 60 }, (_, i) => `Item ${i + 1}: the board discussed the ${['ledger', 'tenant', 'invoice', 'quorum'][i % 4]} matter number ${i + 1} at length.`);
const LEDGER = ['The ledger balances at the end of every quarter.', 'Receipts are kept for seven years by the finance office.', 'Invoices above the limit need two signatures.'];

describe('the copy of the shared sources a cite anchors in', () => {
  let services: TestServices;
  let mirror: SourceMirror;
  let ids: Record<string, number>;
  beforeEach(async () => {
    services = openTestServices();
    const docs = path.join(services.dir, 'docs');
    ids = await ingestAll(services, [writeFile(docs, 'minutes.txt', `${MINUTES.join('\n')}\n`), writeFile(docs, 'ledger.txt', `${LEDGER.join('\n')}\n`)]);
    mirror = new SourceMirror(services.evidence);
    await mirror.refresh();
  });
  afterEach(() => {
    mirror.close();
    services.close();
  });

  const hits = (db: SourceMirror['db'], word: string): number => (db.prepare('SELECT count(*) AS n FROM segments_fts WHERE segments_fts MATCH ?').get(word) as { n: number }).n;
  const indexedHits = (word: string): number => hits(mirror.db, word);

  it('indexes a source for search only when a search needs it, and then finds what the workspace finds', async () => {
    const minutes = ids['minutes.txt'] ?? 0;
    const ledger = ids['ledger.txt'] ?? 0;
    await mirror.load(minutes);
    await mirror.load(ledger);
    const local = new Verifier(new AnchoringStore(services.db), new SearchStore(services.db));
    const copy = new Verifier(mirror.anchoring, mirror.search);
    const same = (quote: string, locator: { line?: number }) => {
      const [a, b] = [local.anchor(minutes, quote, locator), copy.anchor(minutes, quote, locator)];
      expect(b.match?.segment.id).toBe(a.match?.segment.id);
      expect(b.match?.score).toBe(a.match?.score);
      expect(b.notes).toEqual(a.notes);
      return b;
    };

    // At its claimed line: found there, nothing searched, nothing indexed.
    expect(same('the board discussed the invoice matter number 31', { line: 31 }).match?.score).toBe(1);
    expect(indexedHits('invoice')).toBe(0);
    // No place claimed: the source's candidates come from full-text search, indexed for it then.
    expect(same('the board discussed the quorum matter number 44', {}).match?.score).toBe(1);
    expect(indexedHits('quorum')).toBe(hits(services.db, 'quorum'));
    expect(indexedHits('quorum')).toBeGreaterThan(0);
    expect(indexedHits('signatures')).toBe(0);
    // A search of every source indexes the rest first, and finds what the workspace's search finds.
    const query = '"signatures" OR "receipts"';
    const found = mirror.search.search(query, { limit: 5, snippets: false }).map((h) => h.segment_id);
    expect(found).toEqual(new SearchStore(services.db).search(query, { limit: 5, snippets: false }).map((h) => h.segment_id));
    expect(found.length).toBeGreaterThan(0);
  });

  it("copies a PDF's text without its text-item geometry, and places its quotes as the workspace does", async () => {
    const pdf = (await ingestAll(services, [writeFile(path.join(services.dir, 'docs'), 'policy.pdf', await makePdf(POLICY_PAGES))]))['policy.pdf'] ?? 0;
    await mirror.refresh();
    await mirror.load(pdf);
    const geometry = (db: SourceMirror['db']) =>
      db.prepare('SELECT count(*) AS n, count(item_starts) AS items, sum(length(text)) AS chars FROM segments WHERE source_id = ?').get(pdf) as { n: number; items: number; chars: number };
    const [here, copied] = [geometry(services.db), geometry(mirror.db)];
    expect(here.items).toBeGreaterThan(0);
    expect(copied).toEqual({ ...here, items: 0 });
    const local = new Verifier(new AnchoringStore(services.db), new SearchStore(services.db));
    const copy = new Verifier(mirror.anchoring, mirror.search);
    const quote = '14 days of annual leave';
    const [a, b] = [local.anchor(pdf, quote, { page: 3 }), copy.anchor(pdf, quote, { page: 3 })];
    expect(a.match?.score).toBe(1);
    expect(b.match?.segment.id).toBe(a.match?.segment.id);
    expect(b.match?.start).toBe(a.match?.start);
    expect(b.notes).toEqual(a.notes);
  });
});
