/**
 * Warms a citing process before its first call (issue 13): the first cite in a fresh process
 * compiles the anchoring and verdict code and reads WordNet's index, several times a later cite's
 * work, and an MCP server is started by the agent's host well before the agent first cites. So
 * `evidesk mcp` runs one made-up quote and claim through the same code while it waits. Pure
 * reads: nothing is stored, and the sample's results are dropped.
 */
import { findQuote, prepareSegments } from '../../../shared/anchoring/index.ts';
import { judgeClaim } from '../../../shared/verification/verdict.ts';
import { wordNetLexicon } from './wordnet-lexicon.ts';

const SAMPLE_TEXT = [
  'On 3 March 2024 the finance committee approved the annual budget of USD 40 million after a long debate.',
  'Members noted that travel costs rose by 12% and asked the treasurer to report again in June.',
];
/** Slightly off from the text (a changed word, a lost comma), so the fuzzy path runs too. */
const SAMPLE_QUOTE = 'the finance committee approved the yearly budget of USD 40 million';
const SAMPLE_CLAIM = 'In March 2024 the finance committee approved an annual budget of USD 40 million.';

export interface Warmed {
  ms: number;
  /** How the sample quote was found (a fuzzy method: the sample goes past the exact shortcut). */
  method: string | null;
  verdict: string;
}

let warmed: Promise<Warmed> | null = null;

/** Runs the sample once per process, after the current turn; resolves to what it took and found. */
export function warmVerifier(): Promise<Warmed> {
  warmed ??= new Promise((resolve) => {
    setImmediate(() => {
      const t0 = performance.now();
      const segments = prepareSegments(SAMPLE_TEXT.map((text, i) => ({ id: i + 1, text, ordinal: i })));
      const found = findQuote(SAMPLE_QUOTE, segments);
      const judged = judgeClaim(SAMPLE_CLAIM, found?.text ?? SAMPLE_QUOTE, SAMPLE_TEXT.join(' '), wordNetLexicon());
      resolve({ ms: performance.now() - t0, method: found?.method ?? null, verdict: judged.verdict });
    });
  });
  return warmed;
}
