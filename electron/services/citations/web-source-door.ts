/**
 * The one place register_source sends an http(s) URL. Web sources (fetched once, archived, verified
 * against the snapshot) are built elsewhere (issue 11, item 4); until they are wired in, a URL gets
 * a clear coded error and nothing is stored.
 */
import type { FullContext, RegisteredSource } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { WebService } from '../web/web-service.ts';

/** Registers a URL as an archived web source, on behalf of the citing context. */
export type WebSourceRegistrar = (url: string, context: FullContext) => Promise<RegisteredSource>;

export const webSourcesUnavailable: WebSourceRegistrar = (url) =>
  Promise.reject(
    new AppError('WEB_SOURCES_UNAVAILABLE', `url: web sources are not available yet, so ${url.slice(0, 200)} was not fetched and nothing was stored. Save the page as a file and register its path instead.`, {
      field: 'url',
    }),
  );

/** The MCP door to web sources: the page fetched once and archived, its snapshot the source of record. */
export function webSourceRegistrar(web: WebService): WebSourceRegistrar {
  return async (url) => {
    const r = await web.register(url);
    const outcome = r.outcome === 'unchanged' ? 'existing' : r.outcome;
    const notes = [
      `Archived from ${r.fetch.finalUrl} on ${r.fetch.fetchedAt}${r.outcome === 'unchanged' ? ': the page has not changed since the last archive' : ''}; citations are checked against this copy, never the live page.`,
      ...r.warnings.map((w) => w.message),
    ];
    return {
      kind: 'web',
      outcome,
      source_id: r.source.id,
      sha256: r.source.sha256,
      file_name: r.source.fileName,
      identifier: url,
      page_count: r.source.pageCount,
      restricted: r.source.restricted,
      notes,
    };
  };
}
