// Full-text search latency at 100,000 segments, with and without snippets.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SearchService } from '../electron/services/search/search-service.ts';
import { openDatabase } from '../electron/services/store/database.ts';
import { sqliteEvidenceStore } from '../electron/services/store/sqlite-evidence-store.ts';
import { SearchStore } from '../electron/services/store/search-store.ts';
import { toFtsQuery } from '../shared/search/fts-query.ts';
import { SourcesStore } from '../electron/services/store/sources-store.ts';
import { rng } from '../test/support/random.ts';
import { percentile, type BenchSection } from './report.ts';

/** Seeded pseudo-prose: a Zipf-like vocabulary, so some words are common and most are rare. */
export function vocabulary(n: number, random: () => number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vo', 'dri', 'pla', 'sto', 'gre', 'qua', 'zen', 'bor', 'fil'];
  const words = new Set<string>();
  while (words.size < n) {
    const k = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: k }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  }
  return [...words];
}

async function ftsSection(): Promise<BenchSection> {
  const random = rng(42);
  const vocab = vocabulary(30_000, random);
  const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(vocab.length * random() ** 3))] ?? 'ka';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-fts-'));
  const db = openDatabase(dir);
  const store = new SourcesStore(db);
  const SEGMENTS = 100_000;
  const perSource = 1000;
  const t0 = performance.now();
  // Some stored texts are kept, so the app's phrase searches quote words that stand together somewhere.
  const kept: string[] = [];
  for (let s = 0; s < SEGMENTS / perSource; s++) {
    const segments = Array.from({ length: perSource }, (_, p) => ({ text: Array.from({ length: 60 }, zipf).join(' '), page: p + 1, itemStarts: [0] }));
    kept.push(segments[s % perSource]?.text ?? '', segments[(s * 7 + 3) % perSource]?.text ?? '');
    store.insert(
      {
        sha256: s.toString(16).padStart(64, '0'),
        fileName: `bench-${s}.pdf`,
        byteSize: 1,
        path: `/bench/${s}.pdf`,
        stat: { size: 1, mtimeMs: 0 },
        doc: { kind: 'pdf', method: 'bench', title: null, pageCount: perSource, segments, warnings: [] },
        snapshot: null,
        predecessorId: null,
      },
      new Date().toISOString(),
    );
  }
  const buildMs = performance.now() - t0;
  // Through the async store interface, as the app searches (issue 13).
  const search = new SearchService(sqliteEvidenceStore(db).search);
  // Queries as analysts type them: two or three words; half drawn like the text (so frequent words
  // that match thousands of segments are common), half from the whole vocabulary.
  const word = (i: number) => (i % 2 === 0 ? zipf() : (vocab[Math.floor(random() * vocab.length)] ?? 'ka'));
  const queries = Array.from({ length: 300 }, (_, q) => Array.from({ length: 2 + Math.floor(random() * 2) }, () => word(q)).join(' '));
  const time = async (snippets: boolean) => {
    for (const q of queries.slice(0, 20)) await search.search(q, { limit: 20, snippets });
    const ms: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      await search.search(q, { limit: 20, snippets });
      ms.push(performance.now() - t);
    }
    return ms.sort((a, b) => a - b);
  };
  const plain = await time(false);
  const withSnippets = await time(true);
  // As the app's search box asks (issue 12): a quoted phrase cut from the text, a type filter,
  // snippets and the match's offsets for the viewer, the best 200.
  const phrases = Array.from({ length: 200 }, (_, i) => {
    const words = (kept[i % kept.length] ?? '').split(' ');
    const k = 2 + Math.floor(random() * 2);
    const at = Math.floor(random() * (words.length - k - 2));
    return `"${words.slice(at, at + k).join(' ')}" ${words[at + k + 1] ?? ''}`.trim();
  });
  for (const q of phrases.slice(0, 20)) await search.search(q, { limit: 200, snippets: true, kinds: ['pdf'] });
  const app: number[] = [];
  for (const q of phrases) {
    const t = performance.now();
    await search.search(q, { limit: 200, snippets: true, kinds: ['pdf'] });
    app.push(performance.now() - t);
  }
  app.sort((a, b) => a - b);
  // What the async interface costs on SQLite (issue 13): each query asked of the store directly
  // and through EvidenceStore, the first of the two in turn (the second finds the pages cached).
  const direct = new SearchStore(db);
  const through = sqliteEvidenceStore(db).search;
  const bare: number[] = [];
  const wrapped: number[] = [];
  const options = { limit: 20, snippets: true };
  const askDirect = (q: string) => {
    const t = performance.now();
    const match = toFtsQuery(q);
    if (match !== null) direct.search(match, options);
    bare.push(performance.now() - t);
  };
  const askThrough = async (q: string) => {
    const t = performance.now();
    await through.search(q, options);
    wrapped.push(performance.now() - t);
  };
  for (const [i, q] of queries.entries()) {
    if (i % 2 === 0) {
      askDirect(q);
      await askThrough(q);
    } else {
      await askThrough(q);
      askDirect(q);
    }
  }
  bare.sort((a, b) => a - b);
  wrapped.sort((a, b) => a - b);
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    title: `Full-text search at ${SEGMENTS.toLocaleString('en')} segments`,
    figures: [
      { name: 'query p50, top 20, no snippets', value: percentile(plain, 50), unit: 'ms' },
      { name: 'query p95, top 20, no snippets', value: percentile(plain, 95), unit: 'ms', goal: { op: '<=', value: 10, of: 'value' } },
      { name: 'query p50, top 20, with snippets', value: percentile(withSnippets, 50), unit: 'ms' },
      { name: 'query p95, top 20, with snippets', value: percentile(withSnippets, 95), unit: 'ms', goal: { op: '<=', value: 25, of: 'value' } },
      { name: 'app search p50: a phrase and a word, type filter, top 200 with snippets and match offsets', value: percentile(app, 50), unit: 'ms' },
      { name: 'app search p95: a phrase and a word, type filter, top 200 with snippets and match offsets', value: percentile(app, 95), unit: 'ms', goal: { op: '<=', value: 100, of: 'value' } },
      { name: 'query p50 through the EvidenceStore interface, beside SearchStore asked directly', value: percentile(wrapped, 50), unit: 'ms', reference: { tool: 'SearchStore asked directly', value: percentile(bare, 50) }, goal: { op: '<=', value: 1.1, of: 'ratio' } },
      { name: 'query p95 through the EvidenceStore interface, beside SearchStore asked directly', value: percentile(wrapped, 95), unit: 'ms', reference: { tool: 'SearchStore asked directly', value: percentile(bare, 95) } },
    ],
    notes: [
      `index built in ${(buildMs / 1000).toFixed(1)} s; ${queries.length} queries of 2–3 words, half of them made of frequent words`,
      `${phrases.length} app searches: a quoted phrase of 2–3 words cut from a stored text, and the word after the next one`,
    ],
  };
}

export async function bench(): Promise<BenchSection[]> {
  return [await ftsSection()];
}
