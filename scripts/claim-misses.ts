/**
 * Prints every pair of the claim development sets (test/fixtures/claims) that the deterministic
 * checks misjudge, with the quote's sentence and every reason: for reading the misses by cause.
 * Run: node_modules/.bin/node scripts/claim-misses.ts [pairs|holdout|fresh …] [--all]
 */
import { sentenceContext } from '../electron/services/verification/sentence-context.ts';
import { wordNetLexicon } from '../electron/services/verification/wordnet-lexicon.ts';
import { judgeClaim } from '../shared/verification/verdict.ts';
import { loadDevSet } from '../test/support/claims-dev-set.ts';

const args = process.argv.slice(2);
const all = args.includes('--all');
const sets = args.filter((a) => !a.startsWith('--'));
const lexicon = wordNetLexicon();
for (const name of sets.length > 0 ? sets : ['pairs', 'holdout', 'fresh']) {
  const pairs = loadDevSet(`${name}.jsonl` as 'pairs.jsonl');
  process.stdout.write(`\n# ${name}\n`);
  for (const p of pairs) {
    const at = p.passage.indexOf(p.quote);
    const context = sentenceContext(p.passage, at, at + p.quote.length);
    const v = judgeClaim(p.claim, p.quote, context, lexicon);
    const called = v.verdict === 'supported' || v.verdict === 'contradicted' ? v.verdict : 'weak';
    if (!all && called === p.label) continue;
    process.stdout.write(`\n${p.id} (${p.kind}) labelled ${p.label}, judged ${v.verdict}\n  claim: ${p.claim}\n  quote: ${p.quote}\n`);
    for (const f of v.findings) process.stdout.write(`  - ${f.code}: ${f.note}\n`);
  }
}
