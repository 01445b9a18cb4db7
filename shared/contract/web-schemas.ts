/**
 * Web sources (issue 11): a URL fetched once, its bytes archived as the source's snapshot, with a
 * fetch record (when, from where, through which redirects, which SHA-256). Citations verify
 * against the archived copy, never the live page.
 */
import { z } from 'zod';
import { Sha256, SourceId, SourceSummary, Warning } from './schemas.ts';

/** What a fetched page is ingested as. */
export const WebPageKind = z.enum(['html', 'pdf', 'text', 'markdown']);
export type WebPageKind = z.infer<typeof WebPageKind>;

export const WebRedirect = z.object({ url: z.string(), status: z.number().int(), location: z.string() });
export type WebRedirect = z.infer<typeof WebRedirect>;

/**
 * added: first archive of this URL. new_version: the page changed since its last archive (the new
 * source's predecessor is the previous one). unchanged: same bytes as the URL's last archive, nothing
 * new stored but this fetch record. duplicate: bytes the workspace already holds as another source.
 */
export const WebOutcome = z.enum(['added', 'new_version', 'unchanged', 'duplicate']);
export type WebOutcome = z.infer<typeof WebOutcome>;

export const WebFetchRecord = z.object({
  id: z.number().int().positive(),
  sourceId: SourceId,
  /** The URL as asked for (normalised, fragment dropped). */
  url: z.string(),
  /** Where the bytes came from after redirects. */
  finalUrl: z.string(),
  redirects: z.array(WebRedirect),
  httpStatus: z.number().int(),
  contentType: z.string().nullable(),
  byteSize: z.number().int().nonnegative(),
  sha256: Sha256,
  fetchedAt: z.string(),
  outcome: WebOutcome,
});
export type WebFetchRecord = z.infer<typeof WebFetchRecord>;

export const WebRegisterOptions = z.object({
  /** Largest page archived, in bytes (default 25 MB). */
  maxBytes: z.number().int().positive().max(1024 * 1024 * 1024).optional(),
  /** The whole fetch, redirects included (default 30 s). */
  timeoutMs: z.number().int().positive().max(10 * 60_000).optional(),
  maxRedirects: z.number().int().nonnegative().max(30).optional(),
});
export type WebRegisterOptions = z.infer<typeof WebRegisterOptions>;

export const WebRegisterResult = z.object({
  outcome: WebOutcome,
  source: SourceSummary,
  /**
   * The URL's previous archive when it differs from `source`: the predecessor of a new_version, the
   * URL's last archive for a duplicate; null when added or unchanged.
   */
  previousSourceId: SourceId.nullable(),
  fetch: WebFetchRecord,
  warnings: z.array(Warning),
});
export type WebRegisterResult = z.infer<typeof WebRegisterResult>;

export const webContract = {
  /** Fetches a web page once and archives it as a source (or a new version of the URL's source). */
  'sources.addUrl': {
    input: z.object({ url: z.string().min(1).max(8192), options: WebRegisterOptions.optional() }),
    output: WebRegisterResult,
  },
  /** The fetch records of a source (empty for a source that did not come from the web), newest first. */
  'sources.fetches': {
    input: z.object({ id: SourceId }),
    output: z.object({ fetches: z.array(WebFetchRecord) }),
  },
} as const;
