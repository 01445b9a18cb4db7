// pg_trgm where it helps (issue 13): a quote copied with slips (a typo, a changed word, other
// punctuation) that full-text search no longer finds is found by trigram word similarity through
// the trigram index; the segment that holds it comes first; an unrelated quote finds nothing.
import { describe, expect, it } from 'vitest';
import { quoteCandidates } from '../../../electron/services/store/postgres/pg-quote-candidates.ts';
import { pgEvidenceStore } from '../../../electron/services/store/postgres/pg-evidence-store.ts';
import { pgTextSource, withPgTeam } from '../../support/pg-team.ts';

const ctx = withPgTeam();

const MINUTES = [
  'The board approved the lease of the Harbour Street warehouse for a term of seven years.',
  'Revenue for the third quarter rose to 4.2 million, driven by renewals in the northern region.',
  'The audit committee asked management to restate the deferred tax balance before the filing.',
  'Members noted that the tenant may terminate on ninety days notice after the second anniversary.',
];
const LETTERS = ['We write to confirm that the invoice of 12 March remains unpaid and is now overdue.', 'Please treat this letter as formal notice under clause 14 of the agreement.'];

async function add(name: string, paragraphs: readonly string[]): Promise<number> {
  const bytes = Buffer.from(paragraphs.join('\n\n'));
  const src = pgTextSource(name, bytes, paragraphs);
  return (
    await ctx.team.admin.addSource(src, async function* () {
      yield bytes;
    })
  ).id;
}

describe('quote candidates by trigram similarity on PostgreSQL', () => {
  it('finds the segment a quote with slips comes from, first, where full-text search finds nothing', async () => {
    const minutes = await add('board-minutes', MINUTES);
    const letters = await add('letters', LETTERS);
    const { pool, who } = ctx.team.agentA;
    // A typo ("terminnate"), a changed word ("days'" for "days") and a dropped word ("the").
    const quote = "the tenant may terminnate on ninety days' notice after second anniversary";

    const searched = await pgEvidenceStore(ctx.team.agentA).search.search(quote, { limit: 10, snippets: false });
    expect(searched).toEqual([]);

    const found = await quoteCandidates({ pool, who }, quote, { limit: 5 });
    expect(found.length).toBeGreaterThan(0);
    const best = found[0];
    const segment = (await ctx.team.owner.query<{ text: string; source_id: number }>('SELECT text, source_id FROM segments WHERE id = $1', [best?.segment_id])).rows[0];
    expect(segment?.source_id).toBe(minutes);
    expect(segment?.text).toBe(MINUTES[3]);
    expect(best?.similarity).toBeGreaterThan(0.6);
    expect(found.map((f) => f.similarity)).toEqual([...found.map((f) => f.similarity)].sort((a, b) => b - a));

    // Within one source only: the letters do not hold it.
    expect(await quoteCandidates({ pool, who }, quote, { limit: 5, sourceId: letters })).toEqual([]);
    expect((await quoteCandidates({ pool, who }, 'formal notice under clause 14 of the agreemnt', { limit: 5, sourceId: letters }))[0]?.source_id).toBe(letters);
  });

  it('finds nothing for a quote from no stored document, and nothing for an empty one', async () => {
    const { pool, who } = ctx.team.agentA;
    expect(await quoteCandidates({ pool, who }, 'photosynthesis converts light into chemical energy in chloroplasts', { limit: 5 })).toEqual([]);
    expect(await quoteCandidates({ pool, who }, '   ', { limit: 5 })).toEqual([]);
  });

  it('has the pg_trgm extension and the trigram index the candidates are found through', async () => {
    const r = await ctx.team.owner.query<{ extname: string }>("SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'");
    expect(r.rows.map((x) => x.extname)).toEqual(['pg_trgm']);
    const idx = await ctx.team.owner.query<{ def: string }>("SELECT pg_get_indexdef('segments_trgm'::regclass) AS def");
    expect(idx.rows[0]?.def).toMatch(/USING gin \(text gin_trgm_ops\)/);
  });
});
