// Developer tool (not a bench, run.ts skips it): the CPU of a warm SQLite cite, as the team bench
// cites (the corpus, quotes copied from stored passages, 8 sessions interleaved in one process),
// plus quotes cited at the wrong page, fabricated quotes and paraphrased claims, which take the
// verdict's other paths. The workspace is ingested once into /tmp and copied afresh for each run,
// so two runs write the same rows: every reply goes to replies.json, to compare byte for byte
// before and after a change. Prints per-cite time (one after another, then 8 at once) and the
// functions by self time while citing; writes cite.cpuprofile for DevTools.
// node bench/profile-cite.ts [--no-profile] [--out DIR]
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { createServices } from '../electron/services/create-services.ts';
import { Verifier } from '../electron/services/verification/verifier.ts';
import { rng } from '../test/support/random.ts';
import { passageQuotes, type PassageQuote } from './passage-quotes.ts';
import { BENCH_PLATFORM } from './bench-platform.ts';
import { percentile } from './report.ts';

// The corpus beside the repository (/work/shared from a worktree too).
// The verifier's share of a cite's CPU: its calls timed where they run.
let verifyCpuMs = 0;
const verifyCitation = Verifier.prototype.verifyCitation;
Verifier.prototype.verifyCitation = function (this: Verifier, c) {
  const t0 = process.cpuUsage();
  try {
    return verifyCitation.call(this, c);
  } finally {
    const d = process.cpuUsage(t0);
    verifyCpuMs += (d.user + d.system) / 1000;
  }
};

const CORPUS = [path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpus', 'docs'), '/work/shared/corpus/docs'].find((d) => fs.existsSync(d)) ?? '';
const DIR = '/tmp/evidesk-prof-cite';
const base = path.join(DIR, 'base');
const outIndex = process.argv.indexOf('--out');
const out = outIndex >= 0 ? path.resolve(process.argv[outIndex + 1] ?? '.') : DIR;

if (!fs.existsSync(path.join(base, 'done'))) {
  fs.rmSync(base, { recursive: true, force: true });
  const services = createServices(BENCH_PLATFORM, path.join(base, 'workspace'));
  await services.ingest.ingest({ paths: [CORPUS], ocr: false });
  services.close();
  fs.writeFileSync(path.join(base, 'done'), '');
}
const run = path.join(DIR, 'run');
fs.rmSync(run, { recursive: true, force: true });
fs.cpSync(base, run, { recursive: true });
const services = createServices(BENCH_PLATFORM, path.join(run, 'workspace'));


const at = (q: PassageQuote) => (q.page !== null ? { page: q.page } : q.line !== null ? { line: q.line } : {});
const ctx = (c: number) => ({ session_id: `bench-${c}`, agent_id: `agent-${c}`, user_id: 'bench', project_id: 'bench' });
type Call = Record<string, unknown>;
const direct: Call[] = passageQuotes(services.sources, 240, 5).map((q, i) => ({ claim: q.text, quote_context: q.text, verbatim_quote: q.text, source: q.sourceId, locator: at(q), context: ctx(i % 8) }));
// Other quotes for the 8 sessions at once: words the lexicon has not met yet, as in the team bench.
const together: Call[] = passageQuotes(services.sources, 240, 7).map((q, i) => ({ claim: q.text, quote_context: q.text, verbatim_quote: q.text, source: q.sourceId, locator: at(q), context: ctx(i % 8) }));
const others = passageQuotes(services.sources, 120, 6);
const r = rng(9);
const words = 'the committee approved a budget for seventeen new lighthouses in the desert near a river of glass'.split(' ');
const varied: Call[] = others.flatMap((q, i) => {
  const wrongPage = q.page !== null ? { page: q.page + 7 } : at(q);
  const fabricated = Array.from({ length: 14 }, () => words[Math.floor(r() * words.length)]).join(' ');
  // A paraphrase: the quote's words reordered and a number or negation slipped in, so the claim differs.
  const w = q.text.split(/\s+/);
  const paraphrase = `${w.slice(Math.floor(w.length / 2)).join(' ')} not ${w.slice(0, Math.floor(w.length / 2)).join(' ')} in 1987`;
  return [
    { claim: q.text, quote_context: q.text, verbatim_quote: q.text, source: q.sourceId, locator: wrongPage, context: ctx(i % 8) },
    { claim: fabricated, quote_context: fabricated, verbatim_quote: `${fabricated} ${i}`, source: q.sourceId, locator: at(q), context: ctx(i % 8) },
    { claim: paraphrase, quote_context: q.text, verbatim_quote: q.text, source: q.sourceId, locator: at(q), context: ctx(i % 8) },
    { claim: paraphrase, source: q.sourceId, locator: at(q), context: ctx(i % 8) },
  ];
});

const replies: unknown[] = [];
/** One cite; `turn`: a turn of the event loop after it, as an agent's next call comes (the team bench's sessions cite on at once). */
async function cite(args: Call, turn = true): Promise<number> {
  const t0 = performance.now();
  const res = await services.dispatch('citations.cite', args);
  const ms = performance.now() - t0;
  replies.push(res);
  if (turn) await new Promise((resolve) => setImmediate(resolve));
  return ms;
}

// Warm-up: WordNet opened, statements prepared, the sources' first reads.
for (const c of direct.slice(0, 20)) await cite(c);
const profile = !process.argv.includes('--no-profile');
// --varied: the profile covers the wrong-page, fabricated and paraphrase cites instead of the direct quotes.
const session = new Session();
if (profile) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
}
const cpu0 = process.cpuUsage();
verifyCpuMs = 0;
const sequential: number[] = [];
for (const c of direct) sequential.push(await cite(c));
const cpuDirect = process.cpuUsage(cpu0);
const verifyDirectMs = verifyCpuMs;
// 8 sessions interleaved, as the team bench cites on SQLite.
const interleaved: number[] = [];
// --together: the profile covers only the 8 sessions at once.
if (profile && process.argv.includes('--together')) await session.post('Profiler.stop').then(() => session.post('Profiler.start'));
const cpu2 = process.cpuUsage();
verifyCpuMs = 0;
await Promise.all(
  Array.from({ length: 8 }, async (_, k) => {
    for (let i = k; i < together.length; i += 8) interleaved.push(await cite(together[i] as Call, false));
  }),
);
const cpuInterleaved = process.cpuUsage(cpu2);
const verifyInterleavedMs = verifyCpuMs;
// The other paths, profiled only when asked (their hints dominate otherwise).
const variedProfile = process.argv.includes('--varied');
let cpuProfile: unknown = null;
if (profile) {
  cpuProfile = (await session.post('Profiler.stop')).profile;
  if (variedProfile) await session.post('Profiler.start');
}
const cpu1 = process.cpuUsage();
const variedMs: number[] = [];
for (const c of varied) variedMs.push(await cite(c));
const cpuVaried = process.cpuUsage(cpu1);
if (profile) {
  if (variedProfile) cpuProfile = (await session.post('Profiler.stop')).profile;
  fs.writeFileSync(path.join(out, 'cite.cpuprofile'), JSON.stringify(cpuProfile));
  summarise(cpuProfile as unknown as CpuProfile);
}
services.close();
fs.writeFileSync(path.join(out, 'replies.json'), JSON.stringify(replies, null, 1));

const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
console.log(`direct quotes one after another: mean ${mean(sequential).toFixed(2)} ms, p50 ${percentile(sorted(sequential), 50).toFixed(2)}, p95 ${percentile(sorted(sequential), 95).toFixed(2)}; CPU ${((cpuDirect.user + cpuDirect.system) / 1000 / direct.length).toFixed(2)} ms per cite, of which verification ${(verifyDirectMs / direct.length).toFixed(2)} ms`);
console.log(`wrong page, fabricated, paraphrase (${varied.length}): mean ${mean(variedMs).toFixed(2)} ms, p95 ${percentile(sorted(variedMs), 95).toFixed(2)}; CPU ${((cpuVaried.user + cpuVaried.system) / 1000 / varied.length).toFixed(2)} ms per cite`);
console.log(`8 sessions interleaved: p50 ${percentile(sorted(interleaved), 50).toFixed(1)} ms, p95 ${percentile(sorted(interleaved), 95).toFixed(1)} ms; CPU ${((cpuInterleaved.user + cpuInterleaved.system) / 1000 / together.length).toFixed(2)} ms per cite, of which verification ${(verifyInterleavedMs / together.length).toFixed(2)} ms`);

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self and total time by function while citing. */
function summarise(p: CpuProfile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const key = (id: number) => {
    const f = byId.get(id)?.callFrame;
    return f ? `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/verdict\//, '')}:${f.lineNumber + 1}` : '?';
  };
  const selfBy = new Map<string, number>();
  const totalBy = new Map<string, number>();
  let all = 0;
  for (const [id, us] of self) {
    all += us;
    selfBy.set(key(id), (selfBy.get(key(id)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = key(at);
      if (seen.has(k)) continue;
      seen.add(k);
      totalBy.set(k, (totalBy.get(k) ?? 0) + us);
    }
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${((100 * us) / all).toFixed(1).padStart(5)}%  ${k}`).join('\n');
  console.log(`# self time (${(all / 1000).toFixed(0)} ms sampled)\n${top(selfBy, 40)}\n# total time\n${top(totalBy, 60)}`);
}
