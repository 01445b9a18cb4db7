import type { PageText } from '../../../../shared/contract/schemas.ts';
import { client } from '../../api/client.ts';
import { recentPromises } from './recent-promises.ts';

/** Recently shown pages' stored text, so scrolling back and forth asks the services once per page. */
const cache = recentPromises<string, PageText>(64);

export function pageText(sourceId: number, page: number): Promise<PageText> {
  return cache.get(`${sourceId}:${page}`, () => client.call('sources.pageText', { id: sourceId, page }));
}

/** Forgets a source's pages (its text changed, e.g. OCR was run again). */
export function forgetPages(sourceId: number): void {
  cache.forget((key) => key.startsWith(`${sourceId}:`));
}
