import type { PageText } from '../../../../shared/contract/schemas.ts';
import { client } from '../../api/client.ts';

/** Recently shown pages' stored text, so scrolling back and forth asks the services once per page. */
const KEEP = 64;
const cache = new Map<string, Promise<PageText>>();

export function pageText(sourceId: number, page: number): Promise<PageText> {
  const key = `${sourceId}:${page}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const p = client.call('sources.pageText', { id: sourceId, page });
  // A failed fetch is not kept: the next look asks again.
  p.catch(() => cache.delete(key));
  cache.set(key, p);
  while (cache.size > KEEP) cache.delete(cache.keys().next().value as string);
  return p;
}

/** Forgets a source's pages (its text changed, e.g. OCR was run again). */
export function forgetPages(sourceId: number): void {
  for (const key of [...cache.keys()]) if (key.startsWith(`${sourceId}:`)) cache.delete(key);
}
