/**
 * Finding a citation's quote again in another version of its source (default: the newest), using
 * the stored anchor's prefix and suffix to choose between repeats, and saying what moved.
 */
import type { ReanchorResult, StoredClaimedLocator } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { searchableQuote } from '../../../shared/anchoring/index.ts';
import { parseJson } from '../../../shared/json-or.ts';
import { citationStatus, VERIFIED_SCORE } from '../../../shared/verification/index.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { AnswersStore } from '../store/answers-store.ts';
import type { Verifier } from './verifier.ts';

export interface ReanchorDeps {
  store: AnswersStore;
  anchoring: AnchoringStore;
  verifier: Verifier;
}

export function reanchorCitation(deps: ReanchorDeps, citationId: number, targetSourceId?: number): ReanchorResult {
const { store, anchoring, verifier } = deps;
  const c = store.citation(citationId);
  if (!c) throw new AppError('CITATION_NOT_FOUND', `There is no citation with id ${citationId} in this workspace.`);
  const old = store.latestResult(citationId);
  const fromSourceId = old?.source_id ?? c.source_id;
  const fromSource = fromSourceId !== null ? anchoring.source(fromSourceId) : undefined;
  const from =
    fromSource && old
      ? { sourceId: fromSource.id, sha256: fromSource.sha256, fileName: fromSource.file_name, page: old.page, pageLabel: old.page_label, segmentId: old.segment_id, start: old.start_offset, end: old.end_offset }
      : null;
  let target = targetSourceId !== undefined ? anchoring.source(targetSourceId) : fromSourceId !== null ? verifier.newestVersion(fromSourceId) : null;
  if (targetSourceId !== undefined && !target) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${targetSourceId} in this workspace.`);
  if (!target && fromSource) target = fromSource;
  const quote = c.quote ?? old?.quote ?? null;
  if (!target || !quote) {
    return { citationId, from, to: null, found: false, moved: false, message: !quote ? 'The citation has no quote to find again.' : 'The citation has no known source to look in.' };
  }
  const stored = parseJson<StoredClaimedLocator>(c.claimed_locator, {});
  // The old anchor's context chooses between repeats; the old page is a hint, not a requirement.
  const hintLocator = old?.page ? { page: old.page } : {};
  const { match } = verifier.anchor(target.id, searchableQuote(quote), hintLocator, {
    prefix: old?.prefix ?? stored.quotePrefix,
    suffix: old?.suffix ?? stored.quoteSuffix,
  });
  const status = citationStatus({ quote, sourceKnown: true, match, claimed: old?.page ? { pages: [old.page] } : null });
  if (!match || match.score < 0.75) {
    return {
      citationId,
      from,
      to: null,
      found: false,
      moved: true,
      message: `The quote is not in ${target.file_name} (source #${target.id})${from?.page ? `; it was on p. ${from.page} of the old version` : ''}.`,
    };
  }
  const to = {
    sourceId: target.id,
    sha256: target.sha256,
    fileName: target.file_name,
    page: match.page ?? null,
    pageLabel: match.segment.pageLabel,
    segmentId: match.segment.id,
    start: match.start,
    end: match.endSegment ? (match.endOffset ?? match.end) : match.end,
    status,
    score: match.score,
    method: match.method,
  };
  const samePlace = from !== null && from.page === to.page && (from.page !== null || (from.start === to.start && from.end === to.end));
  const where = (p: number | null, label: string | null) => (p === null ? 'its passage' : `p. ${label && label !== String(p) ? `${label} (${p})` : p}`);
  const message = samePlace
    ? `Still on ${where(to.page, to.pageLabel)} in ${target.file_name}${match.score < VERIFIED_SCORE ? ` (partial, score ${match.score.toFixed(2)})` : ''}.`
    : `Moved: ${from ? where(from.page, from.pageLabel) : 'unknown'} → ${where(to.page, to.pageLabel)} in ${target.file_name}${match.score < VERIFIED_SCORE ? ` (partial, score ${match.score.toFixed(2)})` : ''}.`;
  return { citationId, from, to, found: match.score >= VERIFIED_SCORE - 1e-9, moved: !samePlace, message };
}
