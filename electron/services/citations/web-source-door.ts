/**
 * The one place register_source sends an http(s) URL. Web sources (fetched once, archived, verified
 * against the snapshot) are built elsewhere (issue 11, item 4); until they are wired in, a URL gets
 * a clear coded error and nothing is stored.
 */
import type { FullContext, RegisteredSource } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';

/** Registers a URL as an archived web source, on behalf of the citing context. */
export type WebSourceRegistrar = (url: string, context: FullContext) => Promise<RegisteredSource>;

export const webSourcesUnavailable: WebSourceRegistrar = (url) =>
  Promise.reject(
    new AppError('WEB_SOURCES_UNAVAILABLE', `url: web sources are not available yet, so ${url.slice(0, 200)} was not fetched and nothing was stored. Save the page as a file and register its path instead.`, {
      field: 'url',
    }),
  );
