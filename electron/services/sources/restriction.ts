/**
 * Marking sources restricted (DESIGN.md §8): a restricted source's text never goes to a model
 * endpoint (the model answerer does not even retrieve it). The flag is a security setting, so a
 * change is all or none and is recorded in the audit chain.
 */
import { AppError } from '../../../shared/contract/errors.ts';
import type { AnswersStore } from '../store/answers-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';

export type AuditLog = Pick<AnswersStore, 'transaction' | 'appendAudit'>;

/** SOURCE_NOT_FOUND naming the ids that are not sources: the whole change is refused. */
export function noSuchSources(missing: readonly number[]): AppError {
  return new AppError('SOURCE_NOT_FOUND', `There is no source with id ${missing.join(', ')} in this workspace; nothing was changed. List the sources and try again.`, { ids: [...missing] });
}

/** Sets the flag on every source in `ids`; returns the ids whose flag changed. */
export function setRestricted(sources: SourcesStore, audit: AuditLog, ids: readonly number[], restricted: boolean, now = new Date().toISOString()): number[] {
  return audit.transaction(() => {
    const missing = sources.missingIds(ids);
    if (missing.length > 0) throw noSuchSources(missing);
    const changed = sources.setRestricted(ids, restricted);
    if (changed.length > 0) audit.appendAudit(restricted ? 'source.restrict' : 'source.unrestrict', { sourceIds: changed }, now);
    return changed;
  });
}
