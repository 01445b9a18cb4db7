// `evidesk ingest URL…`: each http(s) address fetched once and archived (issue 11), one row each.
import type { ErrorData } from '../../../shared/contract/errors.ts';
import type { WebRegisterResult } from '../../../shared/contract/web-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { Dispatch } from '../../../shared/contract/dispatcher.ts';
import { call } from '../command.ts';

export type WebRow = ({ ok: true } & WebRegisterResult) | { ok: false; url: string; error: ErrorData };

export function isWebAddress(arg: string): boolean {
  return /^https?:\/\//i.test(arg);
}

const OUTCOME_WORDS: Record<WebRegisterResult['outcome'], string> = {
  added: 'archived',
  new_version: 'new version',
  unchanged: 'unchanged',
  duplicate: 'duplicate',
};

/** One after the other: a failure is a row, the rest go on. */
export async function registerUrls(services: { dispatch: Dispatch }, urls: readonly string[]): Promise<WebRow[]> {
  const rows: WebRow[] = [];
  for (const url of urls) {
    try {
      rows.push({ ok: true, ...(await call(services, 'sources.addUrl', { url })) });
    } catch (e) {
      rows.push({ ok: false, url, error: e instanceof AppError ? e.toData() : { code: 'INTERNAL', message: String(e) } });
    }
  }
  return rows;
}

export function webRow(w: WebRow): string[] {
  if (!w.ok) return [w.url, 'FAILED', '', '', `${w.error.code}: ${w.error.message}`];
  const hops = w.fetch.redirects.length;
  const note = `fetched ${w.fetch.fetchedAt}${w.fetch.finalUrl !== w.fetch.url ? ` from ${w.fetch.finalUrl}` : ''}${hops ? ` (${hops} redirect${hops > 1 ? 's' : ''})` : ''}`;
  return [w.fetch.url, OUTCOME_WORDS[w.outcome], String(w.source.segmentCount), w.source.sha256.slice(0, 12), note];
}
