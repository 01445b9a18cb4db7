/**
 * A share against the whole: "50% of the purchase price" where the source says "the full purchase
 * price" (or the other way round) states a different amount of the same thing. Shares written in
 * words ("half of") reach here as percentages (number-words.ts).
 */
import { porterStem } from '../porter-stem.ts';

// "50% of the price", "25 percent of its staff".
const SHARE = /(\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)\s+of\s+(?:the|its|their|his|her|our|your|this|that)?\s*([\p{L}-]+)/giu;
// "the full price", "the whole amount", "all of the staff", "all staff".
const WHOLE = /\b(full|whole|entire|complete|total|all(?:\s+of)?(?:\s+(?:the|its|their|his|her|our|your))?)\s+([\p{L}-]+)/giu;

interface Mention {
  text: string;
  stem: string;
}

function shares(text: string): Mention[] {
  return [...text.matchAll(SHARE)].filter((m) => Number(m[1]) < 100).map((m) => ({ text: m[0], stem: porterStem((m[2] ?? '').toLowerCase()) }));
}

function wholes(text: string): Mention[] {
  return [...text.matchAll(WHOLE)].map((m) => ({ text: m[0], stem: porterStem((m[2] ?? '').toLowerCase()) }));
}

/** Notes for each share of a thing that the other text gives whole (either way round). */
export function shareAgainstWhole(claim: string, evidence: string): string[] {
  const out: string[] = [];
  const pairs: [Mention[], Mention[]][] = [
    [shares(claim), wholes(evidence)],
    [wholes(claim), shares(evidence)],
  ];
  for (const [mine, theirs] of pairs) {
    for (const c of mine) {
      const e = theirs.find((x) => x.stem === c.stem);
      if (!e) continue;
      out.push(`the claim says "${c.text}", the source says "${e.text}"`);
    }
  }
  return out;
}
