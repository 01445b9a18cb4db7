/** Contract of citation links (issue 17): resolve a link to a place, announce one to the open window, copy a citation. */
import { z } from 'zod';
import { MAX_LINK_CHARS } from '../links/citation-link.ts';
import { AnswerId, CitationId, MatchPlace } from './answer-schemas.ts';
import { Sha256, SourceId, SourceKind } from './schemas.ts';

/** A link as text: parsed by the service with the one parser (shared/links), never trusted here. */
export const LinkText = z.string().min(1).max(MAX_LINK_CHARS * 2);

/** Where a link opens: a match place (page, block or line; offsets from there) without the run-on parts. */
export const LinkPlace = MatchPlace.pick({ unit: true, at: true, endAt: true, start: true, end: true });
export type LinkPlace = z.infer<typeof LinkPlace>;

export const LinkResolution = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('found'),
    sourceId: SourceId,
    kind: SourceKind,
    fileName: z.string(),
    sha256: Sha256,
    place: LinkPlace,
    /** The place in words: "p. 47 (printed 45)", "¶ 3", "lines 10–12". */
    where: z.string(),
    /** How the place was found: the link's own offsets, or by searching its quote fragment. */
    how: z.enum(['offsets', 'searched']),
    /** The link named an earlier version of this source. */
    newerVersion: z.boolean(),
    message: z.string(),
    /** The answer and citation the link came from, when this workspace still has them. */
    answerId: AnswerId.nullable(),
    citationId: CitationId.nullable(),
  }),
  z.object({
    state: z.literal('missing'),
    sha256: Sha256,
    text: z.string(),
    message: z.string(),
  }),
]);
export type LinkResolution = z.infer<typeof LinkResolution>;

export const CITATION_STYLES = ['inline', 'apa', 'harvard', 'ieee', 'bibtex'] as const;
export const CitationStyle = z.enum(CITATION_STYLES);
export type CitationStyle = z.infer<typeof CitationStyle>;

export const CopiedCitation = z.object({
  text: z.string(),
  html: z.string(),
  /** The citation link; null when the quote was not placed (nothing to link to). */
  link: z.string().nullable(),
});
export type CopiedCitation = z.infer<typeof CopiedCitation>;

/** A file found by its SHA-256 in a folder (a link's source the workspace lacks). */
export const HashSearchResult = z.object({
  found: z.string().nullable(),
  /** Files looked at (hashed only when their size could match: any size here). */
  examined: z.number().int().nonnegative(),
  message: z.string(),
});
export type HashSearchResult = z.infer<typeof HashSearchResult>;

export const linksContract = {
  /** Where a link points in this workspace. Reads only: opening a link never writes anything. */
  'links.resolve': { input: z.object({ link: LinkText }).strict(), output: LinkResolution },
  /** Validates a link and hands it to the open window(s) as a `link.open` event (`evidesk open`). */
  'links.announce': { input: z.object({ link: LinkText }).strict(), output: z.object({ delivered: z.number().int().nonnegative() }) },
  /** A citation in a style, as plain text and HTML, with its link (Copy citation). */
  'links.citation': { input: z.object({ answerId: AnswerId, citationId: CitationId, style: CitationStyle }).strict(), output: CopiedCitation },
  /** Looks for a file with this SHA-256 in a folder (and below), without ingesting it. */
  'links.findByHash': { input: z.object({ sha256: Sha256, dir: z.string().min(1).max(4096) }).strict(), output: HashSearchResult },
} as const;
