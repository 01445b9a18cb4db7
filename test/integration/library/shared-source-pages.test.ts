/**
 * The shared desk's library pages (issue 13): rows read through the store interface, filtered,
 * sorted and paged by keyset as the local SQL pages them; and how the desk reads --database.
 */
import { describe, expect, it } from 'vitest';
import { SourcePageInput, SourceListSummaryInput } from '../../../shared/contract/list-schemas.ts';
import { databaseFromArgv } from '../../../electron/services/shared-desk.ts';
import { sharedPlaceOf } from '../../../electron/services/shared-desk-handlers.ts';
import { sourceListSummaryOf, sourcePageOf } from '../../../electron/services/sources/source-list-rows.ts';
import type { SourceRow } from '../../../electron/services/store/evidence-store.ts';

function row(id: number, fileName: string, kind: SourceRow['kind'], byteSize: number, restricted = 0): SourceRow {
  return { id, file_name: fileName, kind, byte_size: byteSize, restricted, title: null, added_at: `2026-11-${String(10 + id).padStart(2, '0')}T09:00:00Z` } as SourceRow;
}

const ROWS = [row(1, 'HR_Policy.pdf', 'pdf', 900), row(2, 'notes.txt', 'text', 100, 1), row(3, 'Leave policy.docx', 'docx', 500), row(4, 'budget.pdf', 'pdf', 500)];
const names = (page: ReturnType<typeof sourcePageOf>) => page.rows.map((r) => r.source.fileName);
const summarize = (r: SourceRow) => ({ fileName: r.file_name }) as never;

describe('a shared workspace library, paged on the desk', () => {
  it('sorts, filters and pages by cursor without repeating or skipping a row', () => {
    const first = sourcePageOf(ROWS, SourcePageInput.parse({ sort: 'size', dir: 'asc', limit: 2 }), summarize);
    expect(names(first)).toEqual(['notes.txt', 'Leave policy.docx']);
    const second = sourcePageOf(ROWS, SourcePageInput.parse({ sort: 'size', dir: 'asc', limit: 2, after: first.next }), summarize);
    expect(names(second)).toEqual(['budget.pdf', 'HR_Policy.pdf']);
    expect(second.next).toBeNull();
    expect(names(sourcePageOf(ROWS, SourcePageInput.parse({ filter: { text: 'POLICY' }, sort: 'name', dir: 'asc' }), summarize))).toEqual(['HR_Policy.pdf', 'Leave policy.docx']);
    expect(names(sourcePageOf(ROWS, SourcePageInput.parse({ filter: { kind: 'pdf' } }), summarize))).toEqual(['budget.pdf', 'HR_Policy.pdf']);
    expect(names(sourcePageOf(ROWS, SourcePageInput.parse({ filter: { restricted: true } }), summarize))).toEqual(['notes.txt']);
    expect(() => sourcePageOf(ROWS, SourcePageInput.parse({ after: 'not-a-cursor' }), summarize)).toThrow(/cursor/);
  });

  it('counts kinds, restricted sources and health, with a page start before each page', () => {
    const health = (id: number) => (id === 1 ? 'missing' : id === 2 ? 'ok' : 'unchecked') as 'missing' | 'ok' | 'unchecked';
    const s = sourceListSummaryOf(ROWS, SourceListSummaryInput.parse({ sort: 'added', dir: 'desc', pageSize: 3, filter: { kind: 'pdf' } }), health);
    expect(s).toMatchObject({ total: 2, all: 4, restricted: 1, health: { ok: 1, missing: 1, modified: 0, unchecked: 2 }, attention: [{ id: 1, health: 'missing' }], pageStarts: [null] });
    expect(s.kinds).toEqual(expect.arrayContaining([{ kind: 'pdf', count: 2 }, { kind: 'text', count: 1 }, { kind: 'docx', count: 1 }]));
    const paged = sourceListSummaryOf(ROWS, SourceListSummaryInput.parse({ sort: 'added', dir: 'desc', pageSize: 3 }), health);
    const next = sourcePageOf(ROWS, SourcePageInput.parse({ sort: 'added', dir: 'desc', limit: 3, after: paged.pageStarts[1] ?? undefined }), summarize);
    expect(names(next)).toEqual(['HR_Policy.pdf']);
  });
});

describe('how the desk is pointed at a shared database', () => {
  it('takes --database, --database=, then EVIDESK_DATABASE_URL; an empty flag is refused', () => {
    expect(databaseFromArgv(['--database', 'postgres://a@h/db'], {})).toEqual({ url: 'postgres://a@h/db', from: '--database' });
    expect(databaseFromArgv(['--database=postgres://a@h/db'], { EVIDESK_DATABASE_URL: 'postgres://b@h/db' })?.url).toBe('postgres://a@h/db');
    expect(databaseFromArgv(['--workspace', '/tmp/w'], { EVIDESK_DATABASE_URL: ' postgres://b@h/db ' })).toEqual({ url: 'postgres://b@h/db', from: 'EVIDESK_DATABASE_URL' });
    expect(databaseFromArgv([], { EVIDESK_DATABASE_URL: '' })).toBeUndefined();
    expect(() => databaseFromArgv(['--database', '--port', '8080'], {})).toThrow(/postgres:\/\/ URL/);
  });

  it('names the server, database and member, never the password', () => {
    const place = sharedPlaceOf('postgres://alice:s3cret@db.example/evidence', { login: 'alice', level: 'reviewer' });
    expect(place).toEqual({ server: 'db.example:5432', database: 'evidence', login: 'alice', level: 'reviewer' });
    expect(JSON.stringify(place)).not.toContain('s3cret');
  });
});
