import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SourceListSummary, SourcePage, SourcePageInput } from '../../../shared/contract/list-schemas.ts';
import { AuditService } from '../../../electron/services/audit/audit-service.ts';
import { addSmallSources } from '../../support/scale-workspace.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

let services: TestServices | undefined;
afterEach(() => {
  services?.close();
  services = undefined;
});

/** Every page from the first to the last, following `next`; `between` runs after each page. */
async function walk(s: TestServices, input: SourcePageInput, between?: (pageIndex: number) => void): Promise<{ id: number; name: string; size: number }[]> {
  const seen: { id: number; name: string; size: number }[] = [];
  let after: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const page = await callHandler<SourcePage>(s, 'sources.page', { ...input, ...(after ? { after } : {}) });
    seen.push(...page.rows.map((r) => ({ id: r.source.id, name: r.source.fileName, size: r.source.byteSize })));
    if (page.next === null) return seen;
    after = page.next;
    between?.(i);
  }
  throw new Error('the pages never ended');
}

const byName = (a: { name: string; id: number }, b: { name: string; id: number }) => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
};

describe('the library in pages (keyset cursor, issue 16)', () => {
  it('walks every source once, in the order asked, for each sort and direction', async () => {
    services = openTestServices();
    // Names out of id order and with mixed case; several sources share one added time (ties go by id).
    const names = (i: number) => `${['beta', 'Alpha', 'gamma', 'delta'][i % 4]}-${String((i * 37) % 101).padStart(3, '0')}-${i}.txt`;
    const ids = addSmallSources(services.sources, path.join(services.dir, 'notes'), 230, { name: names, addedAt: (i) => new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 7))).toISOString() });
    const all = ids.map((id, i) => ({ id, name: names(i) }));

    const added = await walk(services, { sort: 'added', dir: 'desc', limit: 17 });
    expect(added.map((r) => r.id)).toEqual([...ids].sort((a, b) => b - a));

    const nameAsc = await walk(services, { sort: 'name', dir: 'asc', limit: 23 });
    expect(nameAsc.map((r) => r.id)).toEqual([...all].sort(byName).map((r) => r.id));
    const nameDesc = await walk(services, { sort: 'name', dir: 'desc', limit: 50 });
    expect(nameDesc.map((r) => r.id)).toEqual([...all].sort(byName).reverse().map((r) => r.id));

    const size = await walk(services, { sort: 'size', dir: 'asc', limit: 31 });
    expect(new Set(size.map((r) => r.id)).size).toBe(230);
    for (let i = 1; i < size.length; i++) {
      const [a, b] = [size[i - 1]!, size[i]!];
      expect(a.size < b.size || (a.size === b.size && a.id < b.id)).toBe(true);
    }
  });

  it('neither skips nor repeats a row when sources are added between pages', async () => {
    services = openTestServices();
    const s = services;
    const dir = path.join(s.dir, 'notes');
    const first = addSmallSources(s.sources, dir, 120, { name: (i) => `m-${String(i).padStart(4, '0')}.txt` });
    let batch = 0;
    // After each page: names sorting before the cursor, after it, and equal to rows already seen.
    const seen = await walk(s, { sort: 'name', dir: 'asc', limit: 25 }, () => {
      batch += 1;
      const names = [`a-${batch}.txt`, `z-${batch}.txt`, `m-${String(batch * 10).padStart(4, '0')}.txt`];
      addSmallSources(s.sources, dir, 3, { name: (i) => names[i]!, addedAt: () => '2026-06-01T00:00:00.000Z', start: 1000 + batch * 3 });
    });
    const ids = seen.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of first) expect(ids).toContain(id);
    // In order all along: rows added behind the cursor are not seen, those ahead of it are.
    for (let i = 1; i < seen.length; i++) expect(byName(seen[i - 1]!, seen[i]!)).toBeLessThan(0);
    expect(seen.some((r) => r.name.startsWith('z-'))).toBe(true);
    expect(seen.some((r) => r.name.startsWith('a-'))).toBe(false);
  });

  it('filters in SQL and counts: words of the name, a kind, the restricted flag', async () => {
    services = openTestServices();
    const ids = addSmallSources(services.sources, path.join(services.dir, 'notes'), 300);
    await callHandler(services, 'sources.setRestricted', { ids: [ids[7]!, ids[8]!], restricted: true });

    const one = await callHandler<SourcePage>(services, 'sources.page', { filter: { text: 'note-000123' }, limit: 100 });
    expect(one.rows.map((r) => r.source.fileName)).toEqual(['note-000123.txt']);
    expect(one.next).toBeNull();
    // LIKE's wildcards are the user's characters, not patterns.
    expect((await callHandler<SourcePage>(services, 'sources.page', { filter: { text: 'note_0' } })).rows).toEqual([]);

    const restricted = await callHandler<SourcePage>(services, 'sources.page', { filter: { restricted: true } });
    expect(restricted.rows.map((r) => r.source.id).sort((a, b) => a - b)).toEqual([ids[7], ids[8]]);

    const summary = await callHandler<SourceListSummary>(services, 'sources.listSummary', { filter: { text: 'note-0001' }, pageSize: 40 });
    expect(summary).toMatchObject({ total: 100, all: 300, restricted: 2, kinds: [{ kind: 'text', count: 300 }], health: { unchecked: 300 } });
    expect(summary.pageStarts).toHaveLength(3);

    await callHandler(services, 'sources.check', {});
    const checked = await callHandler<SourceListSummary>(services, 'sources.listSummary', {});
    expect(checked.health).toEqual({ ok: 300, modified: 0, missing: 0, unchecked: 0 });
    expect(checked.attention).toEqual([]);
  });

  it('reaches any page by the skip index with the same rows as walking to it', async () => {
    services = openTestServices();
    addSmallSources(services.sources, path.join(services.dir, 'notes'), 205);
    const summary = await callHandler<SourceListSummary>(services, 'sources.listSummary', { sort: 'name', dir: 'desc', pageSize: 50 });
    expect(summary.pageStarts).toHaveLength(5);
    expect(summary.pageStarts[0]).toBeNull();
    const walked = await walk(services, { sort: 'name', dir: 'desc', limit: 50 });
    for (const [k, start] of summary.pageStarts.entries()) {
      const page = await callHandler<SourcePage>(services, 'sources.page', { sort: 'name', dir: 'desc', limit: 50, ...(start ? { after: start } : {}) });
      expect(page.rows.map((r) => r.source.id)).toEqual(walked.slice(k * 50, k * 50 + 50).map((r) => r.id));
    }
  });

  it('refuses a cursor it did not give out, with a coded error', async () => {
    services = openTestServices();
    await expect(callHandler(services, 'sources.page', { after: 'not json' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(callHandler(services, 'sources.page', { after: '[1,2,3]' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('keeps the audit chain whole for generated sources', async () => {
    services = openTestServices();
    addSmallSources(services.sources, path.join(services.dir, 'notes'), 50);
    expect(new AuditService(services.db).check().ok).toBe(true);
  });
});
