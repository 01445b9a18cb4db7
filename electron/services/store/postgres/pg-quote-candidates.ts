/**
 * Where a quote may be, on PostgreSQL (issue 13: "pg_trgm where it helps"). A quote as an agent
 * or an analyst copied it is often not the stored text to the letter (a typo, an OCR slip, a
 * changed word, other punctuation): full-text search asks for every word, so one wrong word loses
 * the passage. pg_trgm's word similarity asks how much of the quote's trigrams a stretch of a
 * segment holds, through the trigram GIN index migration 1 made, and ranks the segments by it:
 * the candidates that fuzzy anchoring (shared/anchoring) then reads in full.
 */
import { pgRead, type PgContext } from './pg-tx.ts';

export interface QuoteCandidate {
  segment_id: number;
  source_id: number;
  /** pg_trgm's word_similarity of the quote within the segment, 0–1. */
  similarity: number;
}

export interface QuoteCandidateOptions {
  /** Only this source's segments (a citation names its source). */
  sourceId?: number;
  limit: number;
}

export async function quoteCandidates(ctx: PgContext, quote: string, options: QuoteCandidateOptions): Promise<QuoteCandidate[]> {
  if (quote.trim() === '' || options.limit <= 0) return [];
  // <% keeps the segments whose word similarity passes pg_trgm.word_similarity_threshold (0.6
  // unless the server says otherwise), found through the trigram index.
  return pgRead<QuoteCandidate>(
    ctx,
    'find where a quote may be',
    `SELECT g.id AS segment_id, g.source_id, word_similarity($1, g.text)::float8 AS similarity
     FROM segments g
     WHERE $1 <% g.text AND ($2::bigint IS NULL OR g.source_id = $2)
     ORDER BY similarity DESC, g.id
     LIMIT $3`,
    [quote, options.sourceId ?? null, options.limit],
  );
}
