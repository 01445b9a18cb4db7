// Developer tool (not a bench, run.ts skips it): the verifier alone (anchoring and claim verdict,
// no write) on the cites of profile-cite.ts, over its ingested workspace (run profile-cite.ts once
// first). Each pass verifies every input; the first pass's outcomes go to outcomes.json, to
// compare byte for byte before and after a change. Prints the time per verification and per
// claim verdict, and the functions by self time; writes verify.cpuprofile for DevTools.
// node bench/profile-verify.ts [--passes N] [--out DIR]
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { AnchoringStore } from '../electron/services/store/anchoring-store.ts';
import { openDatabase } from '../electron/services/store/database.ts';
import { SearchStore } from '../electron/services/store/search-store.ts';
import { SourcesStore } from '../electron/services/store/sources-store.ts';
import { Verifier, type CitationInput } from '../electron/services/verification/verifier.ts';
import { wordNetLexicon } from '../electron/services/verification/wordnet-lexicon.ts';
import { claimVerdict, type ClaimVerdictInput } from '../shared/verification/verdict.ts';
import { rng } from '../test/support/random.ts';
import { passageQuotes, type PassageQuote } from './passage-quotes.ts';

const DIR = '/tmp/evidesk-prof-cite';
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const out = path.resolve(arg('--out') ?? DIR);
const passes = Number(arg('--passes') ?? 3);
const db = openDatabase(path.join(DIR, 'base', 'workspace'));
const sources = new SourcesStore(db);
const verifier = new Verifier(new AnchoringStore(db), new SearchStore(db));


const at = (q: PassageQuote) => (q.page !== null ? { page: q.page } : q.line !== null ? { line: q.line } : {});
const input = (claim: string, quote: string | null, context: string | null, q: PassageQuote, locator = at(q)): CitationInput => ({ marker: '?', claim, quote, context, sourceRef: {}, sourceId: q.sourceId, locator, notes: [] });
const direct = passageQuotes(sources, 240, 5).map((q) => input(q.text, q.text, q.text, q));
const r = rng(9);
const words = 'the committee approved a budget for seventeen new lighthouses in the desert near a river of glass'.split(' ');
const varied = passageQuotes(sources, 120, 6).flatMap((q, i) => {
  const fabricated = Array.from({ length: 14 }, () => words[Math.floor(r() * words.length)]).join(' ');
  const w = q.text.split(/\s+/);
  const paraphrase = `${w.slice(Math.floor(w.length / 2)).join(' ')} not ${w.slice(0, Math.floor(w.length / 2)).join(' ')} in 1987`;
  return [
    input(q.text, q.text, q.text, q, q.page !== null ? { page: q.page + 7 } : at(q)),
    input(fabricated, `${fabricated} ${i}`, fabricated, q),
    input(paraphrase, q.text, q.text, q),
    input(paraphrase, null, null, q),
  ];
});

// Warm-up on other quotes (WordNet opened, statements prepared), then one pass over the inputs,
// profiled: a cite's words are mostly new to the lexicon's caches, as in the team bench.
for (const q of passageQuotes(sources, 40, 4)) verifier.verifyCitation(input(q.text, q.text, q.text, q));
const lexicon = wordNetLexicon();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const verdictInputs: ClaimVerdictInput[] = [];
const verify = (c: CitationInput) => {
  const o = verifier.verifyCitation(c);
  verdictInputs.push({ claim: c.claim, status: o.status, score: o.match?.score ?? null, matchText: o.match?.text ?? null, quote: o.quote, context: o.evidence, lexicon });
  return o;
};
// The direct quotes are profiled (what the team bench cites); --varied profiles the others instead.
const variedProfile = process.argv.includes('--varied');
let t0 = performance.now();
const cpu0 = process.cpuUsage();
const outcomes = direct.map(verify);
const directMs = (performance.now() - t0) / direct.length;
const cpu = process.cpuUsage(cpu0);
const directCpuMs = (cpu.user + cpu.system) / 1000 / direct.length;
let profile = variedProfile ? null : (await session.post('Profiler.stop')).profile;
if (variedProfile) await session.post('Profiler.stop').then(() => session.post('Profiler.start'));
t0 = performance.now();
outcomes.push(...varied.map(verify));
const variedMs = (performance.now() - t0) / varied.length;
if (variedProfile) profile = (await session.post('Profiler.stop')).profile;
// The claim verdicts again, their caches warm: what remains of a verdict once its words are known.
t0 = performance.now();
for (let p = 0; p < passes; p++) for (const v of verdictInputs) claimVerdict(v);
const verdictMs = (performance.now() - t0) / (passes * verdictInputs.length);
fs.writeFileSync(path.join(out, 'outcomes.json'), JSON.stringify({ outcomes, verdicts: verdictInputs.map((v) => claimVerdict(v)) }, (k, v: unknown) => (k === 'lexicon' ? undefined : v), 1));
fs.writeFileSync(path.join(out, 'verify.cpuprofile'), JSON.stringify(profile));
db.close();

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}
const p = profile as unknown as CpuProfile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const selfBy = new Map<string, number>();
let all = 0;
p.samples.forEach((id, i) => {
  const f = byId.get(id)?.callFrame;
  const k = f ? `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/verdict\//, '')}:${f.lineNumber + 1}` : '?';
  const us = p.timeDeltas[i] ?? 0;
  all += us;
  selfBy.set(k, (selfBy.get(k) ?? 0) + us);
});
console.log([...selfBy].sort((a, b) => b[1] - a[1]).slice(0, 35).map(([k, us]) => `${((100 * us) / all).toFixed(1).padStart(5)}%  ${k}`).join('\n'));
console.log(`verified once: ${direct.length} direct quotes ${directMs.toFixed(2)} ms each (CPU ${directCpuMs.toFixed(2)} ms), ${varied.length} others ${variedMs.toFixed(2)} ms each; their claim verdicts again × ${passes}, warm: ${verdictMs.toFixed(2)} ms each`);
