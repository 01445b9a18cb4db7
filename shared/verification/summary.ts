/**
 * Ledger summary and risk flags for a verified answer (DESIGN.md §6 `summary` and `riskFlags`).
 */
import { CITATION_STATUSES, type CitationStatus } from './status.ts';
import { CLAIM_VERDICTS, type ClaimVerdict } from './verdict.ts';

export interface LedgerItem {
  /** The citation's marker in the answer ("1", "S2"). */
  marker: string;
  /** Groups citations of one claim; defaults to the claim text, else the marker. */
  claimKey?: string | null;
  claim?: string | null;
  status: CitationStatus;
  verdict: ClaimVerdict;
  confidence?: number | null;
  /** The cited source has a newer version in the workspace. */
  sourceOutdated?: boolean;
}

export interface LedgerSummary {
  /** Number of citations. */
  total: number;
  byStatus: Record<CitationStatus, number>;
  byVerdict: Record<ClaimVerdict, number>;
  /** Share of claims with at least one `supported` citation. */
  coverage: number;
  /** Share of claims whose best verdict is `not_found` or `contradicted` (weak is neither). */
  unsupportedRate: number;
}

export const RISK_FLAG_CODES = [
  'missing_evidence',
  'contradiction',
  'low_confidence',
  'conflicting_sources',
  'outdated_source',
] as const;
export type RiskFlagCode = (typeof RISK_FLAG_CODES)[number];

export interface RiskFlag {
  code: RiskFlagCode;
  message: string;
  markers: string[];
}

export interface RiskFlagOptions {
  /** Supported citations below this confidence are flagged (default 0.5). */
  lowConfidence?: number;
}

// Best first: the claim's verdict is the best verdict among its citations.
const VERDICT_RANK: Record<ClaimVerdict, number> = { supported: 0, weak: 1, contradicted: 2, not_found: 3 };

function claimKeyOf(item: LedgerItem): string {
  if (item.claimKey) return `k:${item.claimKey}`;
  const claim = item.claim?.trim();
  if (claim) return `c:${claim.replace(/\s+/g, ' ').toLowerCase()}`;
  return `m:${item.marker}`;
}

function groupByClaim(items: readonly LedgerItem[]): Map<string, LedgerItem[]> {
  const groups = new Map<string, LedgerItem[]>();
  for (const it of items) {
    const key = claimKeyOf(it);
    const g = groups.get(key);
    if (g) g.push(it);
    else groups.set(key, [it]);
  }
  return groups;
}

export function claimVerdictOf(citations: readonly LedgerItem[]): ClaimVerdict {
  let best: ClaimVerdict = 'not_found';
  for (const c of citations) if (VERDICT_RANK[c.verdict] < VERDICT_RANK[best]) best = c.verdict;
  return best;
}

export function summarise(items: readonly LedgerItem[]): LedgerSummary {
  const byStatus = Object.fromEntries(CITATION_STATUSES.map((s) => [s, 0])) as Record<CitationStatus, number>;
  const byVerdict = Object.fromEntries(CLAIM_VERDICTS.map((v) => [v, 0])) as Record<ClaimVerdict, number>;
  for (const it of items) {
    byStatus[it.status]++;
    byVerdict[it.verdict]++;
  }
  const groups = [...groupByClaim(items).values()];
  let supported = 0;
  let unsupported = 0;
  for (const g of groups) {
    const v = claimVerdictOf(g);
    if (v === 'supported') supported++;
    else if (v === 'not_found' || v === 'contradicted') unsupported++;
  }
  const claims = groups.length;
  return {
    total: items.length,
    byStatus,
    byVerdict,
    coverage: claims === 0 ? 0 : supported / claims,
    unsupportedRate: claims === 0 ? 0 : unsupported / claims,
  };
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function riskFlags(items: readonly LedgerItem[], options: RiskFlagOptions = {}): RiskFlag[] {
  const low = options.lowConfidence ?? 0.5;
  const uniq = (xs: string[]): string[] => [...new Set(xs)];
  const flags: RiskFlag[] = [];

  const missing = uniq(items.filter((i) => i.verdict === 'not_found' || i.status === 'not_found' || i.status === 'source_unknown').map((i) => i.marker));
  if (missing.length > 0) {
    flags.push({ code: 'missing_evidence', message: `${plural(missing.length, 'citation has', 'citations have')} no evidence in the workspace's documents`, markers: missing });
  }
  const contra = uniq(items.filter((i) => i.verdict === 'contradicted').map((i) => i.marker));
  if (contra.length > 0) {
    flags.push({ code: 'contradiction', message: `${plural(contra.length, 'citation is', 'citations are')} contradicted by the cited source`, markers: contra });
  }
  const lowConf = uniq(
    items
      .filter((i) => i.verdict === 'weak' || (i.verdict === 'supported' && typeof i.confidence === 'number' && i.confidence < low))
      .map((i) => i.marker),
  );
  if (lowConf.length > 0) {
    flags.push({ code: 'low_confidence', message: `${plural(lowConf.length, 'citation needs', 'citations need')} review: weak or low-confidence support`, markers: lowConf });
  }
  const conflicting: string[] = [];
  // Same claim, or the same marker citing several sources.
  const byMarker = new Map<string, LedgerItem[]>();
  for (const it of items) byMarker.set(it.marker, [...(byMarker.get(it.marker) ?? []), it]);
  for (const g of [...groupByClaim(items).values(), ...byMarker.values()]) {
    if (g.some((i) => i.verdict === 'supported') && g.some((i) => i.verdict === 'contradicted')) {
      conflicting.push(...g.filter((i) => i.verdict === 'supported' || i.verdict === 'contradicted').map((i) => i.marker));
    }
  }
  const conf = uniq(conflicting);
  if (conf.length > 0) {
    flags.push({ code: 'conflicting_sources', message: 'sources disagree: the same claim is both supported and contradicted', markers: conf });
  }
  const outdated = uniq(items.filter((i) => i.sourceOutdated === true).map((i) => i.marker));
  if (outdated.length > 0) {
    flags.push({ code: 'outdated_source', message: `${plural(outdated.length, 'citation cites', 'citations cite')} a source that has a newer version`, markers: outdated });
  }
  return flags;
}

/** Both parts of the ledger at once. */
export function summariseLedger(items: readonly LedgerItem[], options: RiskFlagOptions = {}): { summary: LedgerSummary; riskFlags: RiskFlag[] } {
  return { summary: summarise(items), riskFlags: riskFlags(items, options) };
}
