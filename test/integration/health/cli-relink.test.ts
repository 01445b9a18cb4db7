import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/main.ts';
import { evidesk } from '../../support/cli.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { tempDir } from '../../support/workspace.ts';

describe('evidesk check and relink', () => {
  let dir: string;
  let workspace: string;
  const cli = (...argv: string[]) => evidesk(workspace, ...argv);

  beforeEach(() => {
    dir = tempDir('evidesk-cli-health-');
    workspace = path.join(dir, 'workspace');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reports a moved file missing (exit 1), finds and relinks it with --search, then checks ok', async () => {
    const docs = path.join(dir, 'docs');
    writeFile(docs, 'memo.txt', 'A memo about the budget.\n');
    writeFile(path.join(docs, 'sub'), 'notes.md', '# Notes\n\nSome notes.\n');
    writeFile(docs, 'letter.txt', 'Dear reader, a letter.\n');
    expect((await cli('ingest', docs)).code).toBe(EXIT.ok);

    const clean = await cli('check');
    expect(clean.code).toBe(EXIT.ok);
    expect(clean.out).toContain('3 ok, 0 modified, 0 missing');

    const moved = path.join(dir, 'elsewhere', 'deeper');
    fs.mkdirSync(moved, { recursive: true });
    fs.renameSync(path.join(docs, 'sub', 'notes.md'), path.join(moved, 'notes-renamed.md'));

    const broken = await cli('check');
    expect(broken.code).toBe(EXIT.someFailed);
    const row = broken.out.split('\n').find((l) => l.includes('notes.md') && l.includes('✖ missing'));
    expect(row).toContain(path.join(docs, 'sub', 'notes.md'));
    expect(broken.out).toContain('2 ok, 0 modified, 1 missing');

    const json = JSON.parse((await cli('check', '--json')).out) as { sources: { fileName: string; health: string }[] };
    expect(json.sources.find((s) => s.fileName === 'notes.md')?.health).toBe('missing');

    const relinked = await cli('relink', '--search', dir);
    expect(relinked.code).toBe(EXIT.ok);
    expect(relinked.out).toContain('✓ relinked');
    expect(relinked.out).toContain(path.join(moved, 'notes-renamed.md'));
    expect(relinked.out).toContain('1 relinked, 0 ambiguous, 0 not found');

    const fixed = await cli('check');
    expect(fixed.code).toBe(EXIT.ok);
    expect(fixed.out).toContain('3 ok, 0 modified, 0 missing');
    expect(fixed.out).toContain(path.join(moved, 'notes-renamed.md'));
  });

  it('relinks by id, SHA-256 prefix or file name, reports ambiguous matches, and refuses other bytes', async () => {
    const docs = path.join(dir, 'docs');
    writeFile(docs, 'a.txt', 'Alpha file.\n');
    writeFile(docs, 'b.txt', 'Beta file, longer.\n');
    const ingested = JSON.parse((await cli('ingest', docs, '--json')).out) as { files: { path: string; sourceId: number; sha256: string }[] };
    const a = ingested.files.find((f) => f.path.endsWith('a.txt'));
    const b = ingested.files.find((f) => f.path.endsWith('b.txt'));
    const renamed = path.join(dir, 'docs-2025');
    fs.renameSync(docs, renamed);

    // By file name: the other one is offered, and --yes takes it too.
    const byName = await cli('relink', 'a.txt', path.join(renamed, 'a.txt'));
    expect(byName.code).toBe(EXIT.ok);
    expect(byName.out).toContain('1 other missing sources have the same bytes under the new folder');
    expect(byName.out).toContain(path.join(renamed, 'b.txt'));
    expect((await cli('check')).code).toBe(EXIT.someFailed);

    // Renamed once more: b is still recorded at the first folder, and is found beside a by its name.
    const final = path.join(dir, 'docs-final');
    fs.renameSync(renamed, final);
    const bySha = await cli('relink', (a?.sha256 ?? '').slice(0, 8), path.join(final, 'a.txt'), '--yes');
    expect(bySha.code).toBe(EXIT.ok);
    expect(bySha.out).toContain('Also relinked 1 of 1');
    expect((await cli('check')).code).toBe(EXIT.ok);

    // Two copies of b's bytes: reported as ambiguous, not guessed.
    const copies = path.join(dir, 'copies');
    fs.mkdirSync(path.join(copies, 'x'), { recursive: true });
    fs.mkdirSync(path.join(copies, 'y'), { recursive: true });
    fs.renameSync(path.join(final, 'b.txt'), path.join(copies, 'x', 'b.txt'));
    fs.copyFileSync(path.join(copies, 'x', 'b.txt'), path.join(copies, 'y', 'b.txt'));
    const ambiguous = await cli('relink', String(b?.sourceId), '--search', copies);
    expect(ambiguous.code).toBe(EXIT.someFailed);
    expect(ambiguous.out).toContain('has the same bytes at 2 places');

    const other = writeFile(dir, 'b.txt', 'Not the beta file at all.\n');
    const refused = await cli('relink', String(b?.sourceId), other);
    expect(refused.code).toBe(EXIT.error);
    expect(refused.err).toContain('HASH_MISMATCH');
    expect(refused.err).toContain(other);

    const usage = await cli('relink', 'a.txt');
    expect(usage.code).toBe(EXIT.usage);
    const unknown = await cli('relink', 'nope.pdf', other);
    expect(unknown.code).toBe(EXIT.error);
    expect(unknown.err).toContain('SOURCE_NOT_FOUND');
  });
});
