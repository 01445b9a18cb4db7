/**
 * The public development set of claim verdicts (test/fixtures/claims): passages, and claim /
 * quote pairs over them labelled by hand. A pair's claim is either written out, or a sentence with
 * several markers whose cited marker's clause is the claim (as an import makes it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { claimFinder, splitSentences } from '../../shared/imports/sentences.ts';

export type DevLabel = 'supported' | 'weak' | 'contradicted';

export interface DevPair {
  id: string;
  kind: string;
  passage: string;
  quote: string;
  claim: string;
  /** For two-marker items: the whole sentence the claim was split from. */
  sentence: string | null;
  label: DevLabel;
}

interface RawPair {
  id: string;
  p: string;
  q: string;
  c?: string;
  s?: string;
  m?: string;
  l: DevLabel;
  k: string;
}

const DIR = path.join(import.meta.dirname, '..', 'fixtures', 'claims');

/** The claim an import gives marker `marker` of `sentence`. */
export function clauseOf(sentence: string, marker: string): string {
  const at = sentence.indexOf(`[${marker}]`);
  if (at < 0) throw new Error(`no marker [${marker}] in "${sentence}"`);
  return claimFinder(splitSentences(sentence))(at) ?? sentence;
}

/**
 * The pairs of one file: `pairs.jsonl` (the development set), `holdout.jsonl` (pairs written on
 * passages of their own before the checks were tuned; their failures were looked at later) or
 * `fresh.jsonl` (written last, on passages of their own, scored once, never tuned on).
 */
export function loadDevSet(file: 'pairs.jsonl' | 'holdout.jsonl' | 'fresh.jsonl' = 'pairs.jsonl'): DevPair[] {
  const passages = JSON.parse(fs.readFileSync(path.join(DIR, 'passages.json'), 'utf8')) as Record<string, string>;
  const lines = fs.readFileSync(path.join(DIR, file), 'utf8').split('\n').filter((l) => l.trim());
  return lines.map((line) => {
    const r = JSON.parse(line) as RawPair;
    const passage = passages[r.p];
    if (passage === undefined || !passage.includes(r.q)) throw new Error(`${r.id}: quote not in passage ${r.p}`);
    const claim = r.c ?? clauseOf(r.s ?? '', r.m ?? '');
    return { id: r.id, kind: r.k, passage, quote: r.q, claim, sentence: r.s ?? null, label: r.l };
  });
}

export interface DevScore {
  counts: Record<DevLabel, number>;
  supportedRecall: number;
  /** Share of pairs labelled weak or contradicted that were called supported. */
  falseSupport: number;
  contradictionRecall: number;
  macroF1: number;
  byKind: Record<string, { n: number; right: number }>;
}

export function scoreVerdicts(items: readonly { label: DevLabel; verdict: string; kind: string }[]): DevScore {
  const labels: DevLabel[] = ['supported', 'weak', 'contradicted'];
  // `not_found` never occurs for a found quote; any other verdict counts as weak (not supported).
  const called = (v: string): DevLabel => (v === 'supported' || v === 'contradicted' ? v : 'weak');
  const counts = { supported: 0, weak: 0, contradicted: 0 };
  for (const i of items) counts[i.label]++;
  const f1s = labels.map((l) => {
    const tp = items.filter((i) => i.label === l && called(i.verdict) === l).length;
    const fp = items.filter((i) => i.label !== l && called(i.verdict) === l).length;
    const fn = items.filter((i) => i.label === l && called(i.verdict) !== l).length;
    return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  });
  const recall = (l: DevLabel): number => items.filter((i) => i.label === l && called(i.verdict) === l).length / Math.max(1, counts[l]);
  const unsupported = items.filter((i) => i.label !== 'supported');
  const byKind: Record<string, { n: number; right: number }> = {};
  for (const i of items) {
    const k = (byKind[i.kind] ??= { n: 0, right: 0 });
    k.n++;
    if (called(i.verdict) === i.label) k.right++;
  }
  return {
    counts,
    supportedRecall: recall('supported'),
    falseSupport: unsupported.filter((i) => called(i.verdict) === 'supported').length / Math.max(1, unsupported.length),
    contradictionRecall: recall('contradicted'),
    macroF1: f1s.reduce((a, b) => a + b, 0) / labels.length,
    byKind,
  };
}
