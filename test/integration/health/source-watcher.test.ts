// The watch on the sources' folders: a file moved, deleted or rewritten while the app is open is
// marked at once (a health check of just that source runs and is announced), without a full check.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../shared/contract/events.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices, type TestServices } from '../../support/workspace.ts';

describe('source watcher', () => {
  let services: TestServices;
  let docs: string;
  let events: AppEvent[];
  beforeEach(() => {
    services = openTestServices();
    docs = path.join(services.dir, 'docs');
    events = [];
    services.events.subscribe((e) => events.push(e));
  });
  afterEach(() => services.close());

  async function ingest(...files: string[]): Promise<Map<string, number>> {
    const result = await services.ingest.ingest({ paths: files });
    return new Map(result.files.map((f) => [path.basename(f.path), f.ok ? f.sourceId : -1]));
  }

  it('marks a moved file missing and a rewritten one modified, checking only those sources', async () => {
    const a = writeFile(docs, 'moved.txt', 'This memo will be moved away.\n');
    const b = writeFile(path.join(docs, 'other'), 'edited.txt', 'This memo will be rewritten.\n');
    const c = writeFile(docs, 'kept.txt', 'This memo stays where it is.\n');
    const ids = await ingest(a, b, c);
    await services.health.checkAll();
    await services.watcher.start();
    expect(services.watcher.watchedFolders().sort()).toEqual([docs, path.join(docs, 'other')].sort());
    // chokidar reports ready asynchronously; give the watch time to be in place before touching files.
    await new Promise((r) => setTimeout(r, 300));

    fs.renameSync(a, path.join(services.dir, 'moved-out.txt'));
    await expect.poll(() => services.health.healthOf(ids.get('moved.txt') ?? 0)).toBe('missing');
    fs.writeFileSync(b, 'This memo was rewritten with other words.\n');
    await expect.poll(() => services.health.healthOf(ids.get('edited.txt') ?? 0)).toBe('modified');
    await services.watcher.settled();

    expect(services.health.healthOf(ids.get('kept.txt') ?? 0)).toBe('ok');
    // Each change was announced to the app, as a check of the source it concerns.
    expect(events.filter((e) => e.type === 'sources.health').length).toBeGreaterThanOrEqual(3);
  });

  it('follows new sources and relinks: their folders join the watch', async () => {
    const a = writeFile(docs, 'first.txt', 'The first memo.\n');
    await ingest(a);
    await services.watcher.start();
    const later = writeFile(path.join(services.dir, 'later'), 'second.txt', 'The second memo.\n');
    const ids = await ingest(later);
    await expect.poll(() => services.watcher.watchedFolders().sort()).toEqual([docs, path.dirname(later)].sort());
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(later);
    await expect.poll(() => services.health.healthOf(ids.get('second.txt') ?? 0)).toBe('missing');
  });
});
