// Sources in the shared PostgreSQL workspace (issue 13): snapshots stored in chunk rows by SHA-256
// and read back as a stream; the same document ingested twice at the same moment is one source;
// bytes that do not match their hash leave nothing behind; segments are searchable.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/contract/errors.ts';
import { CHUNK_SIZE } from '../../../electron/services/store/postgres/pg-snapshots.ts';
import { pgDocument, pgTeam, type PgTeam } from '../../support/pg-team.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';

let server: TestPostgres;
let team: PgTeam;

beforeAll(async () => {
  server = await startTestPostgres();
  team = await pgTeam(server);
});

afterAll(async () => {
  await team?.close();
  await server?.close();
});

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const r = await team.owner.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params);
  return Number(r.rows[0]?.n);
}

describe('sources in PostgreSQL', () => {
  it('stores a snapshot larger than a chunk in chunk rows and streams it back unchanged', async () => {
    const doc = pgDocument('large-filing', 2 * CHUNK_SIZE + 12345);
    // Pieces of 100,000 bytes do not line up with chunks: the store re-cuts them.
    const added = await team.admin.addSource(doc.src, doc.pieces(100_000));
    expect(added.created).toBe(true);
    expect(await count('blob_chunks WHERE sha256 = $1', [doc.src.sha256])).toBe(3);
    const hash = createHash('sha256');
    let bytes = 0;
    // An agent opens it: every member can, whoever's disk the file is on.
    for await (const chunk of team.agentA.snapshot(doc.src.sha256)) {
      expect(chunk.byteLength).toBeLessThanOrEqual(CHUNK_SIZE);
      hash.update(chunk);
      bytes += chunk.byteLength;
    }
    expect(bytes).toBe(doc.bytes.byteLength);
    expect(hash.digest('hex')).toBe(doc.src.sha256);
  });

  it('makes one source of the same document ingested twice at the same moment', async () => {
    const doc = pgDocument('same-at-once', CHUNK_SIZE + 777);
    const otherAdmin = await team.member('admin_2', 'admin', ['alpha']);
    const [a, b] = await Promise.all([team.admin.addSource(doc.src, doc.pieces()), otherAdmin.addSource(doc.src, doc.pieces())]);
    expect(a.id).toBe(b.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(await count('sources WHERE sha256 = $1', [doc.src.sha256])).toBe(1);
    expect(await count('blobs WHERE sha256 = $1', [doc.src.sha256])).toBe(1);
    expect(await count('blob_chunks WHERE sha256 = $1', [doc.src.sha256])).toBe(2);
    expect(await count("audit_log WHERE table_name = 'sources' AND row_id = $1", [a.id])).toBe(1);
    expect((await team.auditor.verifyChain()).ok).toBe(true);
  });

  it('refuses bytes that do not match their SHA-256 and keeps nothing of them', async () => {
    const doc = pgDocument('tampered-upload', 5000);
    const wrong = { ...doc.src, sha256: createHash('sha256').update('something else').digest('hex') };
    const e = await team.admin.addSource(wrong, doc.pieces()).catch((x: unknown) => x);
    expect(isAppError(e) && e.code).toBe('HASH_MISMATCH');
    expect(await count('blobs WHERE sha256 = $1', [wrong.sha256])).toBe(0);
    expect(await count('sources WHERE sha256 = $1', [wrong.sha256])).toBe(0);
    expect((await team.auditor.verifyChain()).ok).toBe(true);
  });

  it('indexes segment text for full-text and trigram search', async () => {
    const doc = pgDocument('searchable', 3000);
    const { id } = await team.admin.addSource(doc.src, doc.pieces());
    const words = await team.owner.query<{ ordinal: number }>("SELECT ordinal FROM segments WHERE source_id = $1 AND tsv @@ plainto_tsquery('simple', 'sentence 7') ORDER BY ordinal", [id]);
    expect(words.rows.map((r) => r.ordinal)).toContain(7);
    const fuzzy = await team.owner.query<{ ordinal: number }>("SELECT ordinal FROM segments WHERE source_id = $1 AND text % 'searchable sentense 12 says the quartely revenue grew by 12 percnt' ORDER BY similarity(text, 'searchable sentense 12 says the quartely revenue grew by 12 percnt') DESC LIMIT 1", [id]);
    expect(fuzzy.rows[0]?.ordinal).toBe(12);
  });
});
