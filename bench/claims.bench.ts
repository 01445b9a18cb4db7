/**
 * Claim verdicts on the public development set (test/fixtures/claims): claim / quote pairs over
 * generated and corpus-like passages, each labelled supported, weak or contradicted by hand. The
 * quote is taken as found; its context is the passage's sentences around it, as the verifier
 * gives it; a two-marker sentence is first split into the clause of the cited marker. Prints
 * supported recall, false-support rate, contradiction recall and macro-F1 (goals: false support
 * ≤ 3%, supported recall ≥ 90%, contradiction recall ≥ 70%), without any model judge.
 * The held-out pairs (holdout.jsonl) are scored apart: they were written on passages of their
 * own before the checks were tuned (their failures were looked at later). The fresh pairs
 * (fresh.jsonl) were written last, on passages of their own, and never tuned on.
 * Run: node_modules/.bin/node bench/run.ts claims
 */
import { sentenceContext } from '../electron/services/verification/sentence-context.ts';
import { wordNetLexicon } from '../electron/services/verification/wordnet-lexicon.ts';
import type { Lexicon } from '../shared/verification/lexicon.ts';
import { judgeClaim } from '../shared/verification/verdict.ts';
import { loadDevSet, scoreVerdicts, type DevPair } from '../test/support/claims-dev-set.ts';
import type { Bench, BenchSection } from './report.ts';

export const bench: Bench = async () => {
  const t0 = performance.now();
  const lexicon = wordNetLexicon();
  const loadMs = performance.now() - t0;
  return [section(loadDevSet('pairs.jsonl'), 'the development set', lexicon, loadMs), section(loadDevSet('holdout.jsonl'), 'the held-out pairs', lexicon, null), section(loadDevSet('fresh.jsonl'), 'the fresh pairs', lexicon, null)];
};

function section(pairs: DevPair[], name: string, lexicon: Lexicon, loadMs: number | null): BenchSection {
  const t1 = performance.now();
  const judged = pairs.map((p: DevPair) => {
    const at = p.passage.indexOf(p.quote);
    const context = sentenceContext(p.passage, at, at + p.quote.length);
    const v = judgeClaim(p.claim, p.quote, context, lexicon);
    return { pair: p, verdict: v.verdict, reasons: v.reasons };
  });
  const perPairMs = (performance.now() - t1) / pairs.length;
  const s = scoreVerdicts(judged.map((j) => ({ label: j.pair.label, verdict: j.verdict, kind: j.pair.kind })));
  const wrong = judged
    .filter((j) => j.verdict !== j.pair.label)
    .map((j) => `${j.pair.id} (${j.pair.kind}): labelled ${j.pair.label}, judged ${j.verdict} — "${j.pair.claim}"${j.reasons[0] ? ` — ${j.reasons[0]}` : ''}`);
  return {
    title: `Claim verdicts on ${name} (${pairs.length} pairs: ${s.counts.supported} supported, ${s.counts.weak} weak, ${s.counts.contradicted} contradicted), deterministic checks with WordNet`,
    figures: [
      { name: 'supported recall', value: 100 * s.supportedRecall, unit: '%', goal: { op: '>=', value: 90, of: 'value' } },
      { name: 'false-support rate (weak or contradicted called supported)', value: 100 * s.falseSupport, unit: '%', goal: { op: '<=', value: 3, of: 'value' } },
      { name: 'contradiction recall', value: 100 * s.contradictionRecall, unit: '%', goal: { op: '>=', value: 70, of: 'value' } },
      { name: 'macro-F1 (supported, weak, contradicted)', value: 100 * s.macroF1, unit: '%' },
      ...(loadMs === null ? [] : [{ name: 'WordNet opened (first use, once per process: exception lists read, files searched in place)', value: loadMs, unit: 'ms' }]),
      { name: 'time per pair', value: perPairMs, unit: 'ms' },
    ],
    notes: [
      ...Object.entries(s.byKind).map(([kind, k]) => `${kind}: ${k.right}/${k.n} right`),
      `misjudged (${wrong.length}):`,
      ...wrong,
    ],
  };
}
