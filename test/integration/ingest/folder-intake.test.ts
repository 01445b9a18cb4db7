import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestWalk } from '../../../shared/contract/events.ts';
import type { IngestResult, SkippedEntry } from '../../../shared/contract/schemas.ts';
import { skippedSentence } from '../../../shared/domain/skipped.ts';
import { walkPaths, type FoundFile } from '../../../electron/services/ingest/folder-walk.ts';
import { openRegularFile } from '../../../electron/services/ingest/regular-file.ts';
import { evidesk } from '../../support/cli.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { callHandler, openTestServices, tempDir, type TestServices } from '../../support/workspace.ts';

let services: TestServices | undefined;
const servers: net.Server[] = [];
afterEach(async () => {
  services?.close();
  services = undefined;
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const SECRET = 'Outside secret: payroll account 4417 of the director.';

/**
 * root/outside/{secret.txt, private/notes.md} and root/chosen/{good.md, evil.txt → /etc/passwd,
 * secret.txt → ../outside/secret.txt, private → ../outside/private}: the folder of issue 8.
 */
function hostileFolder(root: string): { chosen: string; outside: string } {
  const outside = path.join(root, 'outside');
  writeFile(outside, 'secret.txt', `${SECRET}\n`);
  writeFile(path.join(outside, 'private'), 'notes.md', `# Private\n\n${SECRET}\n`);
  const chosen = path.join(root, 'chosen');
  writeFile(chosen, 'good.md', '# Good\n\nAnnual leave is 14 days.\n');
  fs.symlinkSync('/etc/passwd', path.join(chosen, 'evil.txt'));
  fs.symlinkSync(path.join('..', 'outside', 'secret.txt'), path.join(chosen, 'secret.txt'));
  fs.symlinkSync(path.join(outside, 'private'), path.join(chosen, 'private'));
  return { chosen, outside };
}

function stored(s: TestServices): { paths: string[]; texts: string[] } {
  const paths = (s.db.prepare('SELECT path FROM source_paths ORDER BY path').all() as { path: string }[]).map((r) => r.path);
  const texts = (s.db.prepare('SELECT text FROM segments').all() as { text: string }[]).map((r) => r.text);
  return { paths, texts };
}

const byName = (skipped: SkippedEntry[]) => skipped.map((k) => [path.basename(k.path), k.reason, k.entryType]).sort();

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

async function listenOn(socketPath: string): Promise<void> {
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
}

describe('folder intake: links out of the chosen folder are skipped with reasons', () => {
  it('a file link (to /etc/passwd and to a file beside the folder) and a folder link pointing outside ingest nothing outside and are listed as skipped', async () => {
    services = openTestServices();
    const { chosen } = hostileFolder(services.dir);
    const result = await services.ingest.ingest({ paths: [chosen] });
    expect(result.files.map((f) => [path.basename(f.path), f.ok])).toEqual([['good.md', true]]);
    expect(byName(result.skipped)).toEqual([
      ['evil.txt', 'link_outside', 'file'],
      ['private', 'link_outside', 'folder'],
      ['secret.txt', 'link_outside', 'file'],
    ]);
    expect(result.skipped.find((k) => path.basename(k.path) === 'evil.txt')?.target).toBe(fs.realpathSync('/etc/passwd'));
    // Nothing from outside reached the workspace: no path, no text, no search hit.
    const { paths, texts } = stored(services);
    expect(paths).toEqual([path.join(chosen, 'good.md')]);
    expect(texts.join('\n')).not.toContain('payroll');
    expect(texts.join('\n')).not.toContain('root:');
    expect(await callHandler<{ hits: unknown[] }>(services, 'search.query', { query: 'payroll director' })).toEqual({ hits: [] });
    // The analyst reads why, in sentences.
    expect(result.skipped.map(skippedSentence).sort()).toEqual([
      'Skipped evil.txt: it links to a file outside the folder you chose.',
      'Skipped private: it links to a folder outside the folder you chose.',
      'Skipped secret.txt: it links to a file outside the folder you chose.',
    ]);
  });

  it('links inside the chosen folder are followed (file and folder links, also when the folder itself is reached through a link), each folder walked once', async () => {
    services = openTestServices();
    const root = path.join(services.dir, 'real');
    writeFile(path.join(root, 'docs'), 'policy.md', '# Policy\n\nCarry-over is five days.\n');
    writeFile(path.join(root, 'docs', 'deeper'), 'memo.txt', 'A memo kept deeper down.\n');
    fs.symlinkSync(path.join('docs', 'deeper', 'memo.txt'), path.join(root, 'memo-link.txt'));
    fs.symlinkSync('docs', path.join(root, 'zz-again')); // sorts after docs/: docs is walked by its own name
    fs.symlinkSync('..', path.join(root, 'docs', 'up')); // a loop back to the chosen folder
    // The user chose a link to the folder: "inside" is judged against where it really is.
    const chosenLink = path.join(services.dir, 'shortcut');
    fs.symlinkSync(root, chosenLink);
    const result = await services.ingest.ingest({ paths: [chosenLink] });
    expect(result.skipped).toEqual([]);
    expect(result.files.map((f) => [path.relative(chosenLink, f.path), f.ok && f.outcome])).toEqual([
      [path.join('docs', 'deeper', 'memo.txt'), 'added'],
      [path.join('docs', 'policy.md'), 'added'],
      ['memo-link.txt', 'duplicate'],
    ]);
    expect(services.sources.count()).toBe(2);
  });

  it('evidesk ingest lists the skips in its table as sentences; --follow-symlinks follows links out, but never to a device', async () => {
    const dir = tempDir();
    const workspace = path.join(dir, 'workspace');
    const { chosen } = hostileFolder(dir);
    fs.rmSync(path.join(chosen, 'evil.txt'));
    fs.symlinkSync('/dev/null', path.join(chosen, 'null.txt'));

    const plain = await evidesk(workspace, 'ingest', chosen);
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/private\s+skipped\s+Skipped private: it links to a folder outside the folder you chose\./);
    expect(plain.out).toMatch(/secret\.txt\s+skipped\s+Skipped secret\.txt: it links to a file outside the folder you chose\./);
    expect(plain.out).toMatch(/null\.txt\s+skipped\s+Skipped null\.txt: it links to a device file, not a regular file, so it was not opened\./);
    expect(plain.out).toContain('1 of 1 files ingested, 3 skipped.');
    expect(plain.out).toContain('--follow-symlinks');

    const followed = await evidesk(workspace, 'ingest', chosen, '--follow-symlinks', '--json');
    expect(followed.code).toBe(0);
    const result = JSON.parse(followed.out) as IngestResult;
    expect(result.files.map((f) => [path.basename(f.path), f.ok && f.outcome]).sort()).toEqual([
      ['good.md', 'duplicate'],
      ['notes.md', 'added'],
      ['secret.txt', 'added'],
    ]);
    expect(result.skipped).toEqual([{ path: path.join(chosen, 'null.txt'), reason: 'special_file', entryType: 'device', target: '/dev/null' }]);
  });
});

describe('folder intake: only regular files are read', () => {
  it('a FIFO in the folder does not hang the walk and is listed as refused; so are a link to it, a socket, and /dev/null chosen directly', async () => {
    services = openTestServices();
    const folder = path.join(services.dir, 'odd');
    writeFile(folder, 'good.md', '# Good\n\nA regular file.\n');
    mkfifo(path.join(folder, 'pipe.txt')); // no writer: opening it for reading would block forever
    fs.symlinkSync('pipe.txt', path.join(folder, 'pipe-link.txt'));
    await listenOn(path.join(folder, 'agent.sock'));
    const explicitFifo = path.join(services.dir, 'chosen-pipe.md');
    mkfifo(explicitFifo);
    const result = await services.ingest.ingest({ paths: [folder, explicitFifo, '/dev/null'] });
    expect(result.files.map((f) => [path.basename(f.path), f.ok])).toEqual([['good.md', true]]);
    expect(byName(result.skipped)).toEqual([
      ['agent.sock', 'special_file', 'socket'],
      ['chosen-pipe.md', 'special_file', 'fifo'],
      ['null', 'special_file', 'device'],
      ['pipe-link.txt', 'special_file', 'fifo'],
      ['pipe.txt', 'special_file', 'fifo'],
    ]);
    const sentences = result.skipped.map(skippedSentence);
    expect(sentences).toContain('Skipped pipe.txt: it is a named pipe (FIFO), not a regular file, so it was not opened.');
    expect(sentences).toContain('Skipped pipe-link.txt: it links to a named pipe (FIFO), not a regular file, so it was not opened.');
    expect(sentences).toContain('Skipped agent.sock: it is a socket, not a regular file, so it was not opened.');
  });

  it('a chosen link to a regular file outside any folder is read (the user chose it); a broken link in a folder is listed', async () => {
    services = openTestServices();
    const target = writeFile(path.join(services.dir, 'elsewhere'), 'report.md', '# Report\n\nChosen through a link.\n');
    const link = path.join(services.dir, 'report-link.md');
    fs.symlinkSync(target, link);
    const folder = path.join(services.dir, 'with-broken');
    fs.mkdirSync(folder);
    fs.symlinkSync(path.join(services.dir, 'gone.md'), path.join(folder, 'dangling.md'));
    const result = await services.ingest.ingest({ paths: [link, folder] });
    expect(result.files.map((f) => [f.path, f.ok])).toEqual([[link, true]]);
    expect(result.skipped.map((k) => [path.basename(k.path), k.reason])).toEqual([['dangling.md', 'link_broken']]);
  });

  it('a file swapped after the walk saw it (for a FIFO, a link or another file) is refused on the open handle, without blocking', async () => {
    const dir = tempDir();
    const file = writeFile(dir, 'a.md', '# A\n\nText.\n');
    const walked: FoundFile[] = [];
    for await (const item of walkPaths([dir], { followSymlinks: false })) if (item.type === 'file') walked.push(item);
    const found = walked[0];
    if (!found) throw new Error('the walk found no file');
    const expectRefused = async (code: string) => {
      const e = await openRegularFile(found).then(
        () => null,
        (err: unknown) => err as { code: string; message: string },
      );
      expect(e?.code).toBe(code);
      expect(e?.message).toContain('a.md');
    };
    // The walked file is kept under another name, so no new file can reuse its inode.
    fs.renameSync(file, path.join(dir, 'kept.md'));
    mkfifo(file);
    await expectRefused('FILE_UNREADABLE');
    fs.rmSync(file);
    fs.symlinkSync('/etc/passwd', file);
    await expectRefused('FILE_CHANGED_DURING_INGEST');
    fs.rmSync(file);
    // Another file renamed over the path (made first, so it cannot reuse the walked file's inode).
    const other = writeFile(dir, 'other.tmp', 'Other bytes in a new file.\n');
    fs.renameSync(other, file);
    await expectRefused('FILE_CHANGED_DURING_INGEST');
  });
});

describe('folder intake: the walk is asynchronous and cancellable', () => {
  /** 60 folders of 150 files each, one supported file first: a long walk with little to ingest. */
  function bigTree(root: string): number {
    writeFile(root, '000-first.md', '# First\n\nFound first, ingested while the walk goes on.\n');
    for (let d = 0; d < 60; d++) {
      const sub = path.join(root, `d${String(d).padStart(2, '0')}`);
      fs.mkdirSync(sub, { recursive: true });
      for (let f = 0; f < 150; f++) fs.writeFileSync(path.join(sub, `img-${f}.png`), '');
    }
    return 2 + 60 * 151; // the tree itself, the first file, and each folder with its files
  }

  it('ingestion starts before the walk ends, and cancelling stops the walk part-way', async () => {
    services = openTestServices();
    const s = services;
    const root = path.join(s.dir, 'tree');
    const total = bigTree(root);
    const walks: IngestWalk[] = [];
    let walkDoneAtFirstFile: boolean | undefined;
    let walkingFlag: boolean | undefined;
    const off = s.events.subscribe((e) => {
      if (e.type === 'ingest.walk') walks.push(e);
      if (e.type === 'ingest.progress' && walkDoneAtFirstFile === undefined) {
        walkDoneAtFirstFile = walks.some((w) => w.done);
        walkingFlag = e.walking;
        // Through the contract handler, as the app's Cancel button does.
        void s.dispatch('sources.cancelIngest', { batchId: e.batchId });
      }
    });
    const result = await s.ingest.ingest({ paths: [root] });
    off();
    expect(walkDoneAtFirstFile).toBe(false);
    expect(walkingFlag).toBe(true);
    expect(result.cancelled).toBe(true);
    const last = walks[walks.length - 1];
    expect(last?.done).toBe(true);
    expect(last?.entries).toBeLessThan(total);
    expect(result.skipped.length).toBeLessThan(total - 1);
    // Every skip reached the events too, each once.
    expect(walks.flatMap((w) => w.skipped)).toEqual(result.skipped);
  });

  it('the same walk not cancelled sees every entry and reports the unsupported files', async () => {
    services = openTestServices();
    const root = path.join(services.dir, 'tree');
    const total = bigTree(root);
    const walks: IngestWalk[] = [];
    const off = services.events.subscribe((e) => {
      if (e.type === 'ingest.walk') walks.push(e);
    });
    const result = await services.ingest.ingest({ paths: [root] });
    off();
    expect(result.cancelled).toBe(false);
    expect(result.files.map((f) => path.basename(f.path))).toEqual(['000-first.md']);
    expect(result.skipped.length).toBe(60 * 150);
    expect(walks[walks.length - 1]).toMatchObject({ done: true, entries: total, files: 1 });
  });
});
