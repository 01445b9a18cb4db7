/**
 * Timing sanity check for quote anchoring (not a test): per-citation p50/p95 over ~200 generated
 * pages of ~2,500 chars. Run: node bench/anchoring-bench.ts
 *
 * "prepared"  reuses prepareSegments() across citations (one source, many citations);
 * "fresh"     passes fresh segment objects each time (as rows loaded per citation would be):
 *             normalisation comes from the text-keyed cache;
 * "uncached"  also clears that cache before every citation: normalisation is paid every time.
 */
import { clearNormalisationCache, findQuote, prepareSegments } from '../shared/anchoring/index.ts';
import { cleanSpan, int, makeCorpus, pick, rng, surfaceNoise, typos, type Page } from '../test/unit/anchoring/corpus.ts';

const PAGES = 200;
const N = 200;
const corpus = makeCorpus(7, PAGES, 2500);
const pages = corpus.pages;
const totalChars = pages.reduce((s, p) => s + p.text.length, 0);

function spans(seed: number): { page: Page; quote: string; start: number }[] {
  const r = rng(seed);
  const out: { page: Page; quote: string; start: number }[] = [];
  for (let n = 0; n < N; n++) {
    const page = pick(r, pages);
    const len = int(r, 8, 40);
    const i = int(r, 0, page.words.length - len - 1);
    const s = cleanSpan(page, i, i + len - 1);
    out.push({ page, quote: s.quote, start: s.start });
  }
  return out;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

interface Case {
  name: string;
  quotes: { quote: string; page?: Page }[];
}

const r = rng(11);
const exactQuotes = spans(1).map(({ page }) => {
  const a = int(r, 0, page.text.length - 150);
  return { quote: page.text.slice(a, a + int(r, 40, 140)).trim(), page };
});
const cases: Case[] = [
  { name: 'exact', quotes: exactQuotes },
  { name: 'normalised', quotes: spans(2).map((s) => ({ quote: surfaceNoise(r, s.quote), page: s.page })) },
  { name: 'fuzzy 3%', quotes: spans(3).map((s) => ({ quote: typos(r, s.quote, Math.max(1, Math.round(s.quote.length * 0.03))), page: s.page })) },
  { name: 'fuzzy 5%', quotes: spans(4).map((s) => ({ quote: typos(r, s.quote, Math.max(1, Math.round(s.quote.length * 0.05))), page: s.page })) },
  {
    name: 'not found',
    quotes: Array.from({ length: N }, () => {
      const words: string[] = [];
      for (let w = int(r, 8, 30); w > 0; w--) words.push(pick(r, corpus.vocab));
      return { quote: words.join(' ') };
    }),
  },
];

console.log(`anchoring bench: ${PAGES} pages, ${(totalChars / 1000).toFixed(0)}k chars, ${N} citations per case (node ${process.versions.node})`);
const prepStart = performance.now();
const prepared = prepareSegments(pages);
console.log(`prepareSegments (first, normalises every page): ${(performance.now() - prepStart).toFixed(1)} ms`);
const t2 = performance.now();
prepareSegments(pages);
console.log(`prepareSegments (cached normalisation, re-joins): ${(performance.now() - t2).toFixed(1)} ms`);

// Warm up the JIT so the figures are steady-state.
for (const c of cases) for (const q of c.quotes.slice(0, 20)) findQuote(q.quote, prepared);

for (const mode of ['prepared', 'fresh', 'uncached'] as const) {
  for (const c of cases) {
    const times: number[] = [];
    let hits = 0;
    let right = 0;
    for (const q of c.quotes) {
      const input: readonly Page[] | typeof prepared = mode === 'prepared' ? prepared : pages.map((p) => ({ ...p }));
      if (mode === 'uncached') clearNormalisationCache();
      const t = performance.now();
      const m = findQuote(q.quote, input);
      times.push(performance.now() - t);
      if (m) hits++;
      if (m && q.page && m.segmentId === q.page.id) right++;
    }
    console.log(
      `${mode.padEnd(8)} ${c.name.padEnd(10)} p50 ${percentile(times, 50).toFixed(2).padStart(6)} ms  p95 ${percentile(times, 95).toFixed(2).padStart(6)} ms  max ${Math.max(...times).toFixed(1).padStart(6)} ms  found ${hits}/${c.quotes.length}${c.name === 'not found' ? '' : `, right page ${right}`}`,
    );
  }
}
