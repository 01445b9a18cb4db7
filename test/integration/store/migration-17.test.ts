/**
 * Migration 17 (issue 16): a partial index of the restricted sources, so the library's summary
 * counts them without reading every source. Sources written before it are counted the same after it.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, schemaVersion, type Db } from '../../../electron/services/store/database.ts';
import { SourceListStore } from '../../../electron/services/store/source-list-store.ts';
import { SourcesStore } from '../../../electron/services/store/sources-store.ts';
import { addSmallSources } from '../../support/scale-workspace.ts';
import { tempDir } from '../../support/workspace.ts';

const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

describe('migration 17: the restricted sources indexed', () => {
  it('applies over a v15 workspace with restricted sources, and the count reads the index', () => {
    const dir = tempDir();
    const before = openDatabase(dir, { targetVersion: 15 });
    const ids = addSmallSources(new SourcesStore(before), path.join(dir, 'notes'), 30);
    new SourcesStore(before).setRestricted([ids[3] ?? 0, ids[7] ?? 0], true);
    before.close();

    const db = openDatabase(dir, { targetVersion: 17 });
    opened.push(db);
    expect(schemaVersion(db)).toBe(17);
    const list = new SourceListStore(db);
    expect(list.restrictedCount()).toBe(2);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM sources s WHERE restricted = 1").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/sources_restricted/);
    // A source restricted after the migration is in the index too.
    new SourcesStore(db).setRestricted([ids[9] ?? 0], true);
    expect(list.restrictedCount()).toBe(3);
  });
});
