import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { HealthReport, SourceHealth, SourceSummary } from '../../../shared/contract/schemas.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { EventBus } from '../../../electron/services/events.ts';
import { HealthService } from '../../../electron/services/health/health-service.ts';
import { ChainStore } from '../../../electron/services/store/audit-chain-store.ts';
import { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

async function ingestAll(services: TestServices, paths: string[]): Promise<Map<string, number>> {
  const result = await services.ingest.ingest({ paths });
  const ids = new Map<string, number>();
  for (const f of result.files) {
    if (!f.ok) throw new Error(`ingest failed for ${f.path}: ${f.error.message}`);
    ids.set(path.basename(f.path), f.sourceId);
  }
  return ids;
}

/**
 * An answer with `counts[i]` citations on `sourceIds[i]`, written with SQL as the answers feature
 * would, each row recorded in the audit chain (a workspace with unrecorded rows cannot be moved).
 */
function cite(services: TestServices, citations: [sourceId: number, count: number][]): void {
  const now = new Date().toISOString();
  const chain = new ChainStore(services.db);
  services.db.transaction(() => {
    const answer = services.db
      .prepare(`INSERT INTO answers (format, question, answer_text, origin, created_at) VALUES ('evidence-desk/answer@1', 'q', 'a', 'test', ?)`)
      .run(now);
    chain.record('answers', Number(answer.lastInsertRowid), now);
    const insert = services.db.prepare(
      `INSERT INTO citations (answer_id, ordinal, marker, claim, quote, source_id, claimed_locator, created_at) VALUES (?, ?, ?, 'claim', 'quote', ?, '{}', ?)`,
    );
    let ordinal = 0;
    for (const [sourceId, count] of citations) {
      for (let i = 0; i < count; i++) {
        const row = insert.run(answer.lastInsertRowid, ordinal, String(ordinal + 1), sourceId, now);
        chain.record('citations', Number(row.lastInsertRowid), now);
        ordinal++;
      }
    }
  })();
  chain.publishHead();
}

/** A source's known paths, oldest first, from the engine the health area writes (this member's own on PostgreSQL). */
async function knownPaths(opened: Opened<unknown>, id: number): Promise<{ path: string; current: number; mtime_ms: number }[]> {
  if (!opened.database) return opened.services.sources.paths(id);
  const owner = await opened.database.owner();
  try {
    const rows = await owner.query<{ path: string; current: number; mtime_ms: number }>(
      'SELECT path, current, mtime_ms FROM source_paths WHERE source_id = $1 AND member = current_user ORDER BY first_seen_at, id',
      [id],
    );
    return rows.rows;
  } finally {
    await owner.end();
  }
}

function byName(report: HealthReport): Map<string, SourceHealth> {
  return new Map(report.sources.map((s) => [s.fileName, s]));
}

describeEngines('source health and relinking', (engine) => {
  /**
   * Services whose workspace `prepare` filled (files under `docs`, ingested, cited); on
   * PostgreSQL, moved there and checked as the owner who moved it (the paths are the owner's).
   */
  async function open<T>(prepare: (services: TestServices, docs: string) => Promise<T>) {
    const opened = await engine.open((s) => prepare(s, path.join(s.dir, 'docs')));
    return { ...opened, docs: path.join(opened.services.dir, 'docs') };
  }

  it('reports ok, modified and missing with the number of citations each puts at risk', async () => {
    const { services, prepared: ids, docs } = await open(async (s, docs) => {
      const files = ['kept.txt', 'edited.txt', 'same-size.txt', 'gone.txt'].map((n) => writeFile(docs, n, `The text of ${n}, line one.\n`));
      const ids = await ingestAll(s, files);
      cite(s, [
        [ids.get('kept.txt') ?? 0, 1],
        [ids.get('edited.txt') ?? 0, 2],
        [ids.get('gone.txt') ?? 0, 3],
      ]);
      return ids;
    });
    expect(ids.size).toBe(4);
    fs.appendFileSync(path.join(docs, 'edited.txt'), 'A line added later.\n');
    // Same size, different bytes: only the hash can tell.
    const sameSize = path.join(docs, 'same-size.txt');
    fs.writeFileSync(sameSize, fs.readFileSync(sameSize, 'utf8').toUpperCase());
    fs.rmSync(path.join(docs, 'gone.txt'));

    const report = await callHandler<HealthReport>(services, 'sources.check', {});
    const got = byName(report);
    expect(got.get('kept.txt')).toMatchObject({ health: 'ok', citations: 1, path: path.join(docs, 'kept.txt') });
    expect(got.get('edited.txt')).toMatchObject({ health: 'modified', citations: 2 });
    expect(got.get('same-size.txt')).toMatchObject({ health: 'modified', citations: 0 });
    expect(got.get('gone.txt')).toMatchObject({ health: 'missing', citations: 3, path: path.join(docs, 'gone.txt') });
    expect(got.get('gone.txt')?.detail).toContain('no longer exists');
    expect(got.get('edited.txt')?.detail).toMatch(/new version/);
    expect(report.counts).toEqual({ ok: 1, modified: 2, missing: 1 });

    // sources.list reports the last known health instead of 'unchecked'.
    const list = await callHandler<SourceSummary[]>(services, 'sources.list', {});
    expect(Object.fromEntries(list.map((s) => [s.fileName, s.health]))).toEqual({
      'kept.txt': 'ok',
      'edited.txt': 'modified',
      'same-size.txt': 'modified',
      'gone.txt': 'missing',
    });
  });

  it('says unchecked before any check, and checks only the named sources when asked', async () => {
    const { services, prepared: ids } = await open((s, docs) => ingestAll(s, [writeFile(docs, 'a.txt', 'alpha\n'), writeFile(docs, 'b.txt', 'beta\n')]));
    const list = await callHandler<SourceSummary[]>(services, 'sources.list', {});
    expect(list.map((s) => s.health)).toEqual(['unchecked', 'unchecked']);
    const report = await callHandler<HealthReport>(services, 'sources.check', { ids: [ids.get('b.txt')] });
    expect(report.sources.map((s) => s.fileName)).toEqual(['b.txt']);
    const after = await callHandler<SourceSummary[]>(services, 'sources.list', {});
    expect(Object.fromEntries(after.map((s) => [s.fileName, s.health]))).toEqual({ 'a.txt': 'unchecked', 'b.txt': 'ok' });
  });

  it('keeps a touched file with the same bytes ok, and remembers its new mtime so the next check does not hash it', async () => {
    const opened = await open((s, docs) => ingestAll(s, [writeFile(docs, 'touched.txt', 'Nothing changes in this file but its time.\n')]));
    const { services, docs } = opened;
    const file = path.join(docs, 'touched.txt');
    const id = opened.prepared.get('touched.txt') ?? 0;
    const later = new Date(Date.now() + 3_600_000);
    fs.utimesSync(file, later, later);
    const newMtime = fs.statSync(file).mtimeMs;
    expect((await knownPaths(opened, id))[0]?.mtime_ms).not.toBe(newMtime);

    const first = await services.health.checkAll();
    expect(first.sources[0]).toMatchObject({ health: 'ok', detail: 'touched, same bytes' });
    expect((await knownPaths(opened, id))[0]?.mtime_ms).toBe(newMtime);
    const second = await services.health.checkAll();
    expect(second.sources[0]).toMatchObject({ health: 'ok', detail: 'unchanged' });
  });

  it('calls a source ok when any one of its current paths still holds the bytes', async () => {
    const { services, prepared: ids, docs } = await open(async (s, docs) => {
      const a = writeFile(path.join(docs, 'a'), 'twin.txt', 'Twin bytes at two places.\n');
      const b = writeFile(path.join(docs, 'b'), 'twin.txt', 'Twin bytes at two places.\n');
      const ids = await ingestAll(s, [a, b]);
      expect(s.sources.count()).toBe(1);
      return ids;
    });
    fs.rmSync(path.join(docs, 'a', 'twin.txt'));
    const report = await services.health.checkAll();
    expect(report.sources[0]).toMatchObject({ id: ids.get('twin.txt'), health: 'ok', path: path.join(docs, 'b', 'twin.txt') });
    expect(report.sources[0]?.detail).toContain('1 other recorded path');
  });

  it('finds a moved file by searching a folder: candidates by size, hashed, hidden folders and the workspace skipped', async () => {
    const { services, prepared: ids, docs } = await open((s, docs) => ingestAll(s, [writeFile(docs, 'report.txt', 'The quarterly report, in plain text.\n')]));
    const file = path.join(docs, 'report.txt');
    const id = ids.get('report.txt') ?? 0;
    const elsewhere = path.join(services.dir, 'archive', '2024', 'q3');
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.renameSync(file, path.join(elsewhere, 'renamed-report.txt'));
    // Same size, other bytes: a candidate by size that the hash rules out.
    writeFile(path.join(services.dir, 'archive'), 'decoy.txt', 'THE QUARTERLY REPORT, IN PLAIN TEXT.\n');
    // A copy in a hidden folder is not looked at.
    writeFile(path.join(services.dir, 'archive', '.trash'), 'report.txt', fs.readFileSync(path.join(elsewhere, 'renamed-report.txt')));
    // A symlink loop ends.
    fs.symlinkSync(path.join(services.dir, 'archive'), path.join(elsewhere, 'loop'));

    expect((await services.health.checkAll()).sources[0]?.health).toBe('missing');
    // The search root holds the workspace too: its snapshot blob has the same bytes and must not match.
    const found = await services.health.searchFolder(id, services.dir);
    expect(found.results[0]?.matches).toEqual([path.join(elsewhere, 'renamed-report.txt')]);
    expect(found.hashed).toBe(2);
    // Only the two files outside the hidden folder and the workspace were looked at.
    expect(found.examined).toBe(2);
    expect(found.truncated).toBe(false);

    await callHandler(services, 'sources.relink', { id, path: found.results[0]?.matches[0] });
    expect((await services.health.checkAll()).sources[0]).toMatchObject({ health: 'ok', path: path.join(elsewhere, 'renamed-report.txt') });
  });

  it('returns every match when the same bytes sit at several places, and refuses a search inside the workspace', async () => {
    const { services, prepared: ids, docs } = await open((s, docs) => ingestAll(s, [writeFile(docs, 'dup.txt', 'Duplicated bytes.\n')]));
    const id = ids.get('dup.txt') ?? 0;
    const target = path.join(services.dir, 'copies');
    writeFile(path.join(target, 'one'), 'dup.txt', 'Duplicated bytes.\n');
    writeFile(path.join(target, 'two'), 'dup-copy.txt', 'Duplicated bytes.\n');
    fs.rmSync(path.join(docs, 'dup.txt'));
    const found = await callHandler<{ results: { matches: string[] }[] }>(services, 'sources.searchFolder', { ids: [id], dir: target });
    expect(found.results[0]?.matches).toEqual([path.join(target, 'one', 'dup.txt'), path.join(target, 'two', 'dup-copy.txt')]);
    await expect(callHandler(services, 'sources.searchFolder', { ids: [id], dir: services.workspaceDir })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(callHandler(services, 'sources.searchFolder', { ids: [id], dir: path.join(target, 'nope') })).rejects.toMatchObject({ code: 'FILE_MISSING' });
  });

  it('relinks a renamed folder of 5 sources with one relink and one confirmation of the suggestions', async () => {
    const names = ['a.txt', 'b.txt', 'c.md', path.join('minutes', 'd.txt'), path.join('minutes', 'deep', 'e.txt')];
    const { services, prepared: ids, docs } = await open(async (s, docs) => {
      const old = path.join(docs, 'Project Alpha');
      const files = names.map((n, i) => writeFile(path.dirname(path.join(old, n)), path.basename(n), `Document ${i}: ${'text '.repeat(i + 3)}\n`));
      const ids = await ingestAll(s, files);
      cite(s, [[ids.get('a.txt') ?? 0, 2]]);
      return ids;
    });
    const old = path.join(docs, 'Project Alpha');
    const renamed = path.join(docs, 'Project Alpha (final)');
    fs.renameSync(old, renamed);
    const before = await services.health.checkAll();
    expect(before.counts).toEqual({ ok: 0, modified: 0, missing: 5 });

    const relinked = await callHandler<{ source: SourceSummary; previousPath: string; suggestions: { id: number; fileName: string; fromPath: string; path: string }[] }>(
      services,
      'sources.relink',
      { id: ids.get('a.txt'), path: path.join(renamed, 'a.txt') },
    );
    expect(relinked.source).toMatchObject({ fileName: 'a.txt', health: 'ok' });
    // On PostgreSQL too: the summary's path is this member's own, read from the engine.
    expect(relinked.source.path).toBe(path.join(renamed, 'a.txt'));
    expect(relinked.previousPath).toBe(path.join(old, 'a.txt'));
    expect(relinked.suggestions.map((s) => s.path).sort()).toEqual(names.slice(1).map((n) => path.join(renamed, n)).sort());
    expect(relinked.suggestions.every((s) => s.fromPath.startsWith(old + path.sep))).toBe(true);

    const many = await callHandler<{ results: { ok: boolean }[] }>(services, 'sources.relinkMany', {
      items: relinked.suggestions.map((s) => ({ id: s.id, path: s.path })),
    });
    expect(many.results.map((r) => r.ok)).toEqual([true, true, true, true]);
    const after = await callHandler<HealthReport>(services, 'sources.check', {});
    expect(after.counts).toEqual({ ok: 5, modified: 0, missing: 0 });
    expect(after.sources.every((s) => s.path?.startsWith(renamed + path.sep))).toBe(true);
    expect(byName(after).get('a.txt')?.citations).toBe(2);
  });

  it('finds the suggestions under a renamed ancestor folder too', async () => {
    const { services, prepared: ids, docs } = await open((s, docs) =>
      ingestAll(s, [writeFile(path.join(docs, 'case-2023', 'reports'), 'x.txt', 'Report x.\n'), writeFile(path.join(docs, 'case-2023', 'letters'), 'y.txt', 'Letter y, longer.\n')]),
    );
    fs.renameSync(path.join(docs, 'case-2023'), path.join(docs, 'case-2023-closed'));
    const r = await services.health.relink(ids.get('x.txt') ?? 0, path.join(docs, 'case-2023-closed', 'reports', 'x.txt'));
    expect(r.suggestions).toEqual([
      { id: ids.get('y.txt'), fileName: 'y.txt', fromPath: path.join(docs, 'case-2023', 'letters', 'y.txt'), path: path.join(docs, 'case-2023-closed', 'letters', 'y.txt') },
    ]);
  });

  it('after a relink picked from a folder search, offers the other missing files found anywhere in that tree', async () => {
    const { services, prepared: ids, docs } = await open((s, docs) =>
      ingestAll(s, [
        writeFile(path.join(docs, 'inbox'), 'x.txt', 'Report x.\n'),
        writeFile(path.join(docs, 'inbox'), 'y.txt', 'Letter y, longer.\n'),
        writeFile(path.join(docs, 'inbox'), 'z.txt', 'Note z, the longest of the three.\n'),
      ]),
    );
    const [x, y, z] = ['x.txt', 'y.txt', 'z.txt'].map((n) => path.join(docs, 'inbox', n)) as [string, string, string];
    // Filed away by someone else into unrelated subfolders: no path mapping can guess where.
    const tree = path.join(services.dir, 'filed');
    const moves: [string, string][] = [[x, path.join(tree, '2024', 'q1', 'x.txt')], [y, path.join(tree, 'letters', 'y.txt')], [z, path.join(tree, 'misc', 'deep', 'z.txt')]];
    for (const [from, to] of moves) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.renameSync(from, to);
    }
    await services.health.checkAll();
    const withoutTree = await services.health.relink(ids.get('x.txt') ?? 0, path.join(tree, '2024', 'q1', 'x.txt'));
    expect(withoutTree.suggestions).toEqual([]);
    const r = await services.health.relink(ids.get('y.txt') ?? 0, path.join(tree, 'letters', 'y.txt'), tree);
    expect(r.suggestions).toEqual([{ id: ids.get('z.txt'), fileName: 'z.txt', fromPath: z, path: path.join(tree, 'misc', 'deep', 'z.txt') }]);
  });

  it('refuses a same-named file with other bytes with HASH_MISMATCH and offers ingesting it as a new version', async () => {
    const opened = await open((s, docs) => ingestAll(s, [writeFile(docs, 'policy.txt', 'Leave policy: 14 days.\n')]));
    const { services, docs } = opened;
    const file = path.join(docs, 'policy.txt');
    const id = opened.prepared.get('policy.txt') ?? 0;
    fs.rmSync(file);
    const impostor = writeFile(path.join(services.dir, 'new'), 'policy.txt', 'Leave policy: 15 days.\n');
    const longer = writeFile(path.join(services.dir, 'new2'), 'policy.txt', 'Leave policy: 14 days, revised.\n');
    for (const p of [impostor, longer]) {
      const envelope = await services.dispatch('sources.relink', { id, path: p });
      expect(envelope.ok).toBe(false);
      if (envelope.ok) continue;
      expect(envelope.error.code).toBe('HASH_MISMATCH');
      expect(envelope.error.message).toContain(p);
      expect(envelope.error.message).toMatch(/bytes differ/);
      expect(envelope.error.message).toMatch(/new version/);
    }
    // Nothing was recorded: the source still points at its old (missing) path only.
    expect((await knownPaths(opened, id)).map((p) => [p.path, p.current])).toEqual([[file, 1]]);
    await expect(callHandler(services, 'sources.relink', { id, path: path.join(services.dir, 'nowhere.txt') })).rejects.toMatchObject({ code: 'FILE_MISSING' });
    await expect(callHandler(services, 'sources.relink', { id, path: services.dir })).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
    await expect(callHandler(services, 'sources.relink', { id: 9999, path: impostor })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await expect(callHandler(services, 'sources.relink', { id, path: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('keeps the path history: old paths stay, no longer current, and a file moved back becomes current again', async () => {
    const opened = await open((s, docs) => ingestAll(s, [writeFile(path.join(docs, 'one'), 'h.txt', 'History matters.\n')]));
    const { services, docs } = opened;
    const first = path.join(docs, 'one', 'h.txt');
    const id = opened.prepared.get('h.txt') ?? 0;
    const second = path.join(docs, 'two', 'h.txt');
    fs.mkdirSync(path.dirname(second));
    fs.renameSync(first, second);
    await services.health.relink(id, second);
    const third = path.join(docs, 'three', 'h.txt');
    fs.mkdirSync(path.dirname(third));
    fs.renameSync(second, third);
    await services.health.relink(id, third);
    expect((await knownPaths(opened, id)).map((p) => [p.path, p.current])).toEqual([
      [first, 0],
      [second, 0],
      [third, 1],
    ]);
    // The library's detail reads the engine's sources area: this member's paths.
    const detail = await callHandler<{ knownPaths: { path: string; current: boolean }[]; path: string }>(services, 'sources.get', { id });
    expect(detail.path).toBe(third);
    expect(detail.knownPaths.map((p) => [p.path, p.current])).toEqual([
      [first, false],
      [second, false],
      [third, true],
    ]);

    fs.renameSync(third, first);
    await services.health.relink(id, first);
    expect((await knownPaths(opened, id)).map((p) => [p.path, p.current])).toEqual([
      [first, 1],
      [second, 0],
      [third, 0],
    ]);
    expect((await services.health.checkAll()).sources[0]).toMatchObject({ health: 'ok', path: first });
  });

  it('confirms relinks one by one: a wrong item fails alone, the others go through', async () => {
    const { services, prepared: ids, docs } = await open((s, docs) => ingestAll(s, [writeFile(docs, 'a.txt', 'alpha alpha\n'), writeFile(docs, 'b.txt', 'beta beta\n')]));
    const moved = path.join(services.dir, 'moved');
    fs.mkdirSync(moved);
    fs.renameSync(path.join(docs, 'a.txt'), path.join(moved, 'a.txt'));
    fs.renameSync(path.join(docs, 'b.txt'), path.join(moved, 'b.txt'));
    const out = await callHandler<{ results: ({ ok: true; id: number } | { ok: false; id: number; error: { code: string } })[] }>(services, 'sources.relinkMany', {
      items: [
        { id: ids.get('a.txt'), path: path.join(moved, 'b.txt') },
        { id: ids.get('b.txt'), path: path.join(moved, 'b.txt') },
      ],
    });
    expect(out.results).toMatchObject([
      { ok: false, id: ids.get('a.txt'), error: { code: 'HASH_MISMATCH' } },
      { ok: true, id: ids.get('b.txt') },
    ]);
    expect(Object.fromEntries((await services.health.checkAll()).sources.map((s) => [s.fileName, s.health]))).toEqual({ 'a.txt': 'missing', 'b.txt': 'ok' });
  });

  it('announces each finished check with its counts', async () => {
    const { services } = await open((s, docs) => ingestAll(s, [writeFile(docs, 'e.txt', 'event\n')]));
    const seen: unknown[] = [];
    const off = services.events.subscribe((e) => {
      if (e.type === 'sources.health') seen.push(e.counts);
    });
    await services.health.checkAll();
    off();
    expect(seen).toEqual([{ ok: 1, modified: 0, missing: 0 }]);
  });

  if (engine.name === 'postgres') {
    it('on a shared workspace checks and relinks each member\'s own paths; an auditor may not relink', async () => {
      const opened = await open((s, docs) => ingestAll(s, [writeFile(docs, 'shared.txt', 'One file, two desks.\n')]));
      const { services, docs } = opened;
      const database = opened.database!;
      const id = opened.prepared.get('shared.txt') ?? 0;
      const ownerPath = path.join(docs, 'shared.txt');
      const reviewer = await engine.connectAs(database, 'reviewer');
      const hers = new HealthService(reviewer.health, new EventBus(), services.workspaceDir);
      // She has recorded no path of her own yet: for her the source is missing.
      expect((await hers.checkAll()).sources[0]).toMatchObject({ id, health: 'missing', path: null });
      const copy = writeFile(path.join(services.dir, 'reviewer-desk'), 'shared.txt', 'One file, two desks.\n');
      expect((await hers.relink(id, copy)).previousPath).toBeNull();
      expect((await hers.checkAll()).sources[0]).toMatchObject({ health: 'ok', path: copy });
      // The owner's path is untouched, and the owner's check does not see hers.
      expect((await services.health.checkAll()).sources[0]).toMatchObject({ health: 'ok', path: ownerPath });
      expect((await knownPaths(opened, id)).map((p) => [p.path, p.current])).toEqual([[ownerPath, 1]]);

      const owner = await database.owner();
      try {
        const rows = await owner.query<{ member: string; path: string; current: number }>('SELECT member, path, current FROM source_paths WHERE source_id = $1 ORDER BY id', [id]);
        expect(rows.rows.map((r) => [r.member === reviewer.member.login, r.path, r.current])).toEqual([
          [false, ownerPath, 1],
          [true, copy, 1],
        ]);
        // Her relink is in the one audit chain: her path's row, then the relink itself.
        const last = await owner.query<{ action: string; table_name: string | null }>('SELECT action, table_name FROM audit_log ORDER BY seq DESC LIMIT 2');
        expect(last.rows.map((r) => [r.action, r.table_name])).toEqual([
          ['source.relink', null],
          ['row.append', 'source_paths'],
        ]);
      } finally {
        await owner.end();
      }
      const ownerStore = await PgStore.connect(database.ownerUrl);
      try {
        expect((await ownerStore.verifyChain()).ok).toBe(true);
      } finally {
        await ownerStore.close();
      }

      // An auditor reads everything and writes nothing: PostgreSQL refuses the relink, and says whose level it was.
      const auditor = await engine.connectAs(database, 'auditor');
      const theirs = new HealthService(auditor.health, new EventBus(), services.workspaceDir);
      await expect(theirs.relink(id, copy)).rejects.toMatchObject({ code: 'DATABASE_ROLE_REFUSED', message: expect.stringContaining('auditor role may not relink a source') });
    });
  }
});
