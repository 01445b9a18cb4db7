// Sources in the shared PostgreSQL workspace (issue 13): snapshots stored in chunk rows by SHA-256
// and read back as a stream; the same document ingested twice at the same moment is one source;
// bytes that do not match their hash leave nothing behind; segments are searchable.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/contract/errors.ts';
import { CHUNK_SIZE } from '../../../electron/services/store/postgres/pg-snapshots.ts';
import { pgDocument, withPgTeam } from '../../support/pg-team.ts';

const ctx = withPgTeam();

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const r = await ctx.team.owner.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params);
  return Number(r.rows[0]?.n);
}

describe('sources in PostgreSQL', () => {
  it('stores a snapshot larger than a chunk in chunk rows and streams it back unchanged', async () => {
    const doc = pgDocument('large-filing', 2 * CHUNK_SIZE + 12345);
    // Pieces of 100,000 bytes do not line up with chunks: the store re-cuts them.
    const added = await ctx.team.admin.addSource(doc.src, doc.pieces(100_000));
    expect(added.created).toBe(true);
    expect(await count('blob_chunks WHERE sha256 = $1', [doc.src.sha256])).toBe(3);
    const hash = createHash('sha256');
    let bytes = 0;
    // An agent opens it: every member can, whoever's disk the file is on.
    for await (const chunk of ctx.team.agentA.snapshot(doc.src.sha256)) {
      expect(chunk.byteLength).toBeLessThanOrEqual(CHUNK_SIZE);
      hash.update(chunk);
      bytes += chunk.byteLength;
    }
    expect(bytes).toBe(doc.bytes.byteLength);
    expect(hash.digest('hex')).toBe(doc.src.sha256);
  });

  it('makes one source of the same document ingested twice at the same moment', async () => {
    const doc = pgDocument('same-at-once', CHUNK_SIZE + 777);
    const otherAdmin = await ctx.team.member('admin_2', 'admin', ['alpha']);
    // The first writer claims the hash, then holds its transaction open mid-stream...
    let claimed!: () => void;
    let release!: () => void;
    const hasClaimed = new Promise<void>((r) => (claimed = r));
    const gate = new Promise<void>((r) => (release = r));
    const held = (async function* () {
      claimed();
      yield doc.bytes.subarray(0, 1000);
      await gate;
      yield doc.bytes.subarray(1000);
    })();
    const first = ctx.team.admin.addSource(doc.src, held);
    await hasClaimed;
    // ...while the second writes the same bytes: PostgreSQL makes it wait on the claim.
    let piecesRead = 0;
    const counted = (async function* () {
      for await (const piece of doc.pieces()) {
        piecesRead++;
        yield piece;
      }
    })();
    const second = otherAdmin.addSource(doc.src, counted);
    await expect
      .poll(async () => (await ctx.team.owner.query("SELECT 1 FROM pg_stat_activity WHERE usename = $1 AND wait_event_type = 'Lock'", [otherAdmin.who.login])).rowCount, { timeout: 20_000 })
      .toBe(1);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual({ id: a.id, created: true });
    expect(b).toEqual({ id: a.id, created: false });
    expect(piecesRead).toBe(0);
    expect(await count('sources WHERE sha256 = $1', [doc.src.sha256])).toBe(1);
    expect(await count('blobs WHERE sha256 = $1', [doc.src.sha256])).toBe(1);
    expect(await count('blob_chunks WHERE sha256 = $1', [doc.src.sha256])).toBe(2);
    expect(await count("audit_log WHERE table_name = 'sources' AND row_id = $1", [a.id])).toBe(1);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });

  it('makes one source when both start at once, whichever claims first', async () => {
    const doc = pgDocument('both-at-once', 70_000);
    const otherAdmin = await ctx.team.member('admin_3', 'admin', ['beta']);
    const results = await Promise.all([ctx.team.admin.addSource(doc.src, doc.pieces(10_000)), otherAdmin.addSource(doc.src, doc.pieces(10_000))]);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.map((r) => r.created).sort()).toEqual([false, true]);
    expect(await count('sources WHERE sha256 = $1', [doc.src.sha256])).toBe(1);
  });

  it("keeps each member's own path to the file, recorded in the chain", async () => {
    const doc = pgDocument('with-a-path', 2000);
    const src = { ...doc.src, path: { path: '/home/admin/cases/with-a-path.txt', size: 2000, mtimeMs: 1_700_000_000_000 } };
    const { id } = await ctx.team.admin.addSource(src, doc.pieces());
    const own = await ctx.team.admin.pool.query<{ member: string; path: string }>('SELECT member, path FROM source_paths WHERE source_id = $1', [id]);
    expect(own.rows).toEqual([{ member: ctx.team.admin.who.login, path: src.path.path }]);
    // Another member sees the source, not the admin's disk layout.
    expect((await ctx.team.agentA.pool.query('SELECT 1 FROM source_paths WHERE source_id = $1', [id])).rowCount).toBe(0);
    expect((await ctx.team.agentA.pool.query('SELECT 1 FROM sources WHERE id = $1', [id])).rowCount).toBe(1);
    expect(await count("audit_log WHERE table_name = 'source_paths'")).toBe(1);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });

  it('refuses bytes that do not match their SHA-256 and keeps nothing of them', async () => {
    const doc = pgDocument('tampered-upload', 5000);
    const wrong = { ...doc.src, sha256: createHash('sha256').update('something else').digest('hex') };
    const e = await ctx.team.admin.addSource(wrong, doc.pieces()).catch((x: unknown) => x);
    expect(isAppError(e) && e.code).toBe('HASH_MISMATCH');
    expect(await count('blobs WHERE sha256 = $1', [wrong.sha256])).toBe(0);
    expect(await count('sources WHERE sha256 = $1', [wrong.sha256])).toBe(0);
    expect((await ctx.team.auditor.verifyChain()).ok).toBe(true);
  });

  it('indexes segment text for full-text and trigram search', async () => {
    const doc = pgDocument('searchable', 3000);
    const { id } = await ctx.team.admin.addSource(doc.src, doc.pieces());
    const words = await ctx.team.owner.query<{ ordinal: number }>("SELECT ordinal FROM segments WHERE source_id = $1 AND tsv @@ plainto_tsquery('simple', 'sentence 7') ORDER BY ordinal", [id]);
    expect(words.rows.map((r) => r.ordinal)).toContain(7);
    const fuzzy = await ctx.team.owner.query<{ ordinal: number }>("SELECT ordinal FROM segments WHERE source_id = $1 AND text % 'searchable sentense 12 says the quartely revenue grew by 12 percnt' ORDER BY similarity(text, 'searchable sentense 12 says the quartely revenue grew by 12 percnt') DESC LIMIT 1", [id]);
    expect(fuzzy.rows[0]?.ordinal).toBe(12);
  });
});
