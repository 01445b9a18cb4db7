/**
 * The citation tools' contract (issue 11): what an agent calls while it works, over MCP or the
 * host's HTTP API, through the one dispatcher. Field names are snake_case because agents see them
 * as tool arguments. Sizes are capped so that no call can make the services hold megabytes of text.
 */
import { z } from 'zod';
import { CITATION_METHODS, ClaimedLocator } from '../imports/model.ts';
import { CitationStatusSchema, ClaimVerdictSchema, MatchMethodSchema } from '../verification/result-schema.ts';
import { Sha256, SourceId } from './schemas.ts';

/** The longest verbatim quote a citation may carry: a quote longer than this is a document, not a quote. */
export const MAX_QUOTE_CHARS = 20_000;
export const MAX_CLAIM_CHARS = 10_000;
export const MAX_CONTEXT_CHARS = 50_000;

const Id = z.string().trim().min(1).max(200);

/** Who is citing: carried by a call, else inherited from the door (the MCP server's session). */
export const CitingContext = z
  .object({
    session_id: Id.optional(),
    agent_id: Id.optional(),
    user_id: Id.optional(),
    project_id: Id.optional(),
  })
  .strict();
export type CitingContext = z.infer<typeof CitingContext>;
export type FullContext = Required<CitingContext>;

/** A source as a citation names it: its id, its SHA-256 (or a prefix of 8+ hex digits), its file name or title, or a custom source's identifier. */
export const SourceIdentifier = z.union([SourceId, z.string().trim().min(1).max(1000)]);

export const CustomSourceKind = z.enum(['database', 'dataset', 'other']);

export const RegisterSourceInput = z
  .object({
    path: z.string().min(1).max(4096).optional(),
    url: z.string().min(1).max(8192).optional(),
    custom: z
      .object({ identifier: z.string().trim().min(1).max(500), description: z.string().trim().min(1).max(5000), kind: CustomSourceKind.default('other') })
      .strict()
      .optional(),
    context: CitingContext.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const given = [v.path, v.url, v.custom].filter((x) => x !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: ['path'], message: 'give exactly one of path, url or custom' });
  });

export const RegisteredSource = z.object({
  kind: z.enum(['file', 'web', 'custom']),
  outcome: z.enum(['added', 'duplicate', 'new_version', 'existing']),
  source_id: SourceId.nullable(),
  sha256: Sha256.nullable(),
  file_name: z.string().nullable(),
  identifier: z.string(),
  page_count: z.number().int().nonnegative().nullable(),
  restricted: z.boolean(),
  notes: z.array(z.string()),
});
export type RegisteredSource = z.infer<typeof RegisteredSource>;

/** Where the quote is claimed to be; every field optional, several may be given. */
export const CiteLocator = z
  .object({
    page: z.number().int().positive().optional(),
    page_label: z.string().min(1).max(40).optional(),
    page_start: z.number().int().positive().optional(),
    page_end: z.number().int().positive().optional(),
    section: z.string().min(1).max(500).optional(),
    heading: z.string().min(1).max(500).optional(),
    paragraph: z.number().int().nonnegative().optional(),
    line: z.number().int().positive().optional(),
    line_end: z.number().int().positive().optional(),
    char_start: z.number().int().nonnegative().optional(),
    char_end: z.number().int().nonnegative().optional(),
    table: z.object({ table: z.union([z.number().int().nonnegative(), z.string().max(200)]).optional(), row: z.union([z.number().int().nonnegative(), z.string().max(200)]), col: z.union([z.number().int().nonnegative(), z.string().max(200)]) }).strict().optional(),
    free_form: z.string().min(1).max(1000).optional(),
    /** PowerPoint: the slide (1-based). Excel: the sheet's name and a cell's A1 address ("B3"). */
    slide: ClaimedLocator.shape.slide,
    sheet: ClaimedLocator.shape.sheet,
    cell: ClaimedLocator.shape.cell,
  })
  .strict();
export type CiteLocator = z.infer<typeof CiteLocator>;

export const CitationRelation = z.enum(['supports', 'contradicts', 'extends', 'supersedes']);

export const CiteInput = z
  .object({
    claim: z.string().trim().min(1).max(MAX_CLAIM_CHARS),
    quote_context: z.string().trim().min(1).max(MAX_CONTEXT_CHARS),
    verbatim_quote: z.string().max(MAX_QUOTE_CHARS).optional(),
    quote_language: z.string().min(2).max(35).optional(),
    relevance_reasoning: z.string().max(MAX_CLAIM_CHARS).optional(),
    source: SourceIdentifier,
    locator: CiteLocator.optional(),
    confidence: z.enum(['high', 'medium', 'low']).optional(),
    extraction_method: z.enum(CITATION_METHODS).default('direct_quote'),
    related: z.array(z.object({ citation_id: z.number().int().positive(), relation: CitationRelation }).strict()).max(50).optional(),
    context: CitingContext.optional(),
  })
  .strict();
export type CiteInput = z.infer<typeof CiteInput>;

/** A place in a source: page (PDF), block (DOCX, HTML, as paragraph) or line (text), offsets in that segment. */
export const PassageLocator = z.object({
  page: z.number().int().positive().nullable(),
  page_label: z.string().nullable(),
  paragraph: z.number().int().nonnegative().nullable(),
  line: z.number().int().positive().nullable(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type PassageLocator = z.infer<typeof PassageLocator>;

export const MatchedLocation = z.object({
  source_id: SourceId,
  file_name: z.string(),
  sha256: Sha256,
  locator: PassageLocator,
  method: MatchMethodSchema,
  /** The source's words there; null for a restricted source (its text never goes to a model). */
  text: z.string().nullable(),
});

export const ClosestPassage = z.object({
  source_id: SourceId,
  file_name: z.string(),
  locator: PassageLocator,
  /** Null for a restricted source. */
  text: z.string().nullable(),
});
export type ClosestPassage = z.infer<typeof ClosestPassage>;

export const CandidateSource = z.object({
  source_id: SourceId.nullable(),
  identifier: z.string(),
  title: z.string().nullable(),
  why: z.string(),
});
export type CandidateSource = z.infer<typeof CandidateSource>;

/** `unverifiable`: a custom source (a database, a dataset), whose citations cannot be quote-checked. */
export const CiteStatus = z.union([CitationStatusSchema, z.literal('unverifiable')]);
export type CiteStatus = z.infer<typeof CiteStatus>;

export const CiteResult = z.object({
  citation_id: z.number().int().positive(),
  /** What to put in the prose after the claim, e.g. "[3]". */
  marker: z.string(),
  session_id: z.string(),
  status: CiteStatus,
  verdict: ClaimVerdictSchema,
  score: z.number().min(0).max(1),
  reasons: z.array(z.string()),
  matched: MatchedLocation.nullable(),
  /** One sentence: what to do now. */
  next_step: z.string(),
  closest_passage: ClosestPassage.nullable(),
  candidate_sources: z.array(CandidateSource),
  supersedes: z.number().int().positive().nullable(),
});
export type CiteResult = z.infer<typeof CiteResult>;

export const CitationRecord = z.object({
  citation_id: z.number().int().positive(),
  marker: z.string(),
  answer_id: z.number().int().positive(),
  session_id: z.string(),
  agent_id: z.string(),
  user_id: z.string(),
  project_id: z.string(),
  claim: z.string(),
  verbatim_quote: z.string().nullable(),
  quote_context: z.string().nullable(),
  source: z.object({ source_id: SourceId.nullable(), identifier: z.string(), file_name: z.string().nullable(), custom: z.boolean() }),
  locator: z.record(z.string(), z.unknown()),
  extraction_method: z.string().nullable(),
  confidence: z.string().nullable(),
  quote_language: z.string().nullable(),
  relevance_reasoning: z.string().nullable(),
  related: z.array(z.object({ citation_id: z.number().int().positive(), relation: CitationRelation })),
  status: CiteStatus,
  verdict: ClaimVerdictSchema,
  score: z.number().min(0).max(1),
  reasons: z.array(z.string()),
  matched: MatchedLocation.nullable(),
  supersedes: z.number().int().positive().nullable(),
  superseded_by: z.number().int().positive().nullable(),
  created_at: z.string(),
});
export type CitationRecord = z.infer<typeof CitationRecord>;

export const ListCitationsInput = z
  .object({
    session_id: Id.optional(),
    project_id: Id.optional(),
    agent_id: Id.optional(),
    user_id: Id.optional(),
    status: CiteStatus.optional(),
    source: SourceIdentifier.optional(),
    include_superseded: z.boolean().default(false),
    after_id: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(1000).default(100),
  })
  .strict();

export const SearchSourcesInput = z
  .object({
    query: z.string().trim().min(1).max(2000),
    source: SourceIdentifier.optional(),
    limit: z.number().int().min(1).max(50).default(10),
  })
  .strict();

export const SourceHitOut = z.object({
  source_id: SourceId,
  file_name: z.string(),
  restricted: z.boolean(),
  locator: PassageLocator,
  /** Matched words in «…»; null for a restricted source. */
  snippet: z.string().nullable(),
});

export const GetSourceInput = z.object({ source: SourceIdentifier, page: z.number().int().positive().optional() }).strict();

export const SourceInfo = z.object({
  source_id: SourceId.nullable(),
  identifier: z.string(),
  kind: z.string(),
  sha256: Sha256.nullable(),
  file_name: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  page_count: z.number().int().nonnegative().nullable(),
  restricted: z.boolean(),
  added_at: z.string(),
  newer_version_id: SourceId.nullable(),
  /** The asked page's text; null when no page was asked or the source is restricted. */
  page_text: z.string().nullable(),
  notes: z.array(z.string()),
});
export type SourceInfo = z.infer<typeof SourceInfo>;

export const FormatCitationInput = z.object({ citation_id: z.number().int().positive(), style: z.enum(['inline']).default('inline') }).strict();

/** The citation tools' part of the contract; contract.ts spreads it into the table. */
export const citationsContract = {
  'citations.registerSource': { input: RegisterSourceInput, output: RegisteredSource },
  'citations.cite': { input: CiteInput, output: CiteResult },
  'citations.searchSources': { input: SearchSourcesInput, output: z.object({ hits: z.array(SourceHitOut) }) },
  'citations.getSource': { input: GetSourceInput, output: SourceInfo },
  'citations.get': { input: z.object({ citation_id: z.number().int().positive() }).strict(), output: CitationRecord },
  'citations.list': { input: ListCitationsInput, output: z.object({ citations: z.array(CitationRecord), next_after_id: z.number().int().nonnegative().nullable() }) },
  'citations.format': { input: FormatCitationInput, output: z.object({ citation_id: z.number().int().positive(), style: z.literal('inline'), text: z.string() }) },
} as const;
