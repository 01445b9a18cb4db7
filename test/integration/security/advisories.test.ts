import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADVISORIES_FILE,
  LOCK_FILE,
  describeFinding,
  findVulnerable,
  loadAdvisories,
  lockedCopies,
  type Finding,
} from '../../../scripts/check-advisories.ts';
import { ROOT } from '../../support/build.ts';
import { tempDir } from '../../support/workspace.ts';

const WATCHED = ['pdfjs-dist', 'electron', 'react-pdf', 'mammoth', 'dompurify', 'jszip', 'better-sqlite3'];

const advisories = loadAdvisories();
const flagged = (findings: Finding[]) => findings.map((f) => `${f.copy.location}@${f.copy.version} ${f.advisory?.id ?? 'unverifiable'}`);

/** A lockfile-v3 shaped lock holding exactly these copies. */
function fakeLock(copies: Record<string, { version: string; name?: string }>) {
  return { name: 'fake', lockfileVersion: 3, packages: { '': { name: 'fake' }, ...copies } };
}

describe('dependency advisories: package-lock.json against security/advisories.json', () => {
  it('finds no copy of a watched package, nested ones included, in a listed range', () => {
    const lock = JSON.parse(fs.readFileSync(LOCK_FILE, 'utf8')) as Parameters<typeof findVulnerable>[0];
    const findings = findVulnerable(lock, advisories);
    expect(findings.map(describeFinding)).toEqual([]);
    // Not vacuous: the table covers every watched package, and each is really in the lock under that name.
    const copies = lockedCopies(lock);
    for (const name of WATCHED) {
      expect(advisories.some((a) => a.package === name), `a row for ${name}`).toBe(true);
      expect(copies.some((c) => c.name === name), `${name} in the lock`).toBe(true);
    }
  });

  it('flags a vulnerable version of each watched package, top-level or nested, and passes the first safe one', () => {
    const vulnerable = fakeLock({
      'node_modules/pdfjs-dist': { version: '4.1.392' },
      'node_modules/react-pdf': { version: '8.0.1' },
      'node_modules/react-pdf/node_modules/pdfjs-dist': { version: '5.7.284' },
      'node_modules/some-viewer/node_modules/pdfjs-dist': { version: '6.2.108-rc.1' },
      'node_modules/mammoth': { version: '1.10.0' },
      'node_modules/dompurify': { version: '3.4.16' },
      'node_modules/jszip': { version: '3.7.1' },
      'node_modules/better-sqlite3': { version: '12.4.1' },
      'node_modules/electron': { version: '44.3.0' },
      // An alias install is the package it really is.
      'node_modules/old-pdf': { name: 'pdfjs-dist', version: '2.16.105' },
    });
    const ids = flagged(findVulnerable(vulnerable, advisories));
    expect(ids).toEqual(
      expect.arrayContaining([
        'node_modules/pdfjs-dist@4.1.392 CVE-2024-4367 (GHSA-wgrm-67xf-hhpq)',
        'node_modules/react-pdf@8.0.1 CVE-2024-34342 (GHSA-87hq-q4gp-9wr4)',
        'node_modules/react-pdf@8.0.1 checklist: react-pdf 10.x or 11.x',
        'node_modules/react-pdf/node_modules/pdfjs-dist@5.7.284 CVE-2026-16633',
        'node_modules/some-viewer/node_modules/pdfjs-dist@6.2.108-rc.1 CVE-2026-16633',
        'node_modules/mammoth@1.10.0 CVE-2025-11849 (GHSA-rmjr-87wv-gf87)',
        'node_modules/mammoth@1.10.0 checklist: mammoth >= 1.13.0',
        'node_modules/dompurify@3.4.16 GHSA-cg2g-xh64-v4q7',
        'node_modules/jszip@3.7.1 CVE-2022-48285',
        'node_modules/better-sqlite3@12.4.1 checklist: better-sqlite3 ^13.2',
        'node_modules/electron@44.3.0 checklist: Electron current major',
        'node_modules/old-pdf@2.16.105 CVE-2024-4367 (GHSA-wgrm-67xf-hhpq)',
      ]),
    );
    const locations = new Set(findVulnerable(vulnerable, advisories).map((f) => f.copy.location));
    expect(locations.size).toBe(10); // every copy above is caught

    const firstSafe = fakeLock({
      'node_modules/pdfjs-dist': { version: '4.2.67' },
      'node_modules/a/node_modules/pdfjs-dist': { version: '5.6.82' },
      'node_modules/b/node_modules/pdfjs-dist': { version: '6.2.108' },
      'node_modules/react-pdf': { version: '10.0.0' },
      'node_modules/mammoth': { version: '1.13.0' },
      'node_modules/dompurify': { version: '3.4.17' },
      'node_modules/jszip': { version: '3.8.0' },
      'node_modules/better-sqlite3': { version: '13.2.0' },
      'node_modules/electron': { version: '45.0.0' },
      'node_modules/unwatched': { version: '0.0.1' },
    });
    expect(flagged(findVulnerable(firstSafe, advisories))).toEqual([]);
  });

  it('flags a watched package whose version it cannot check, and reads lockfile v1 trees', () => {
    const git = fakeLock({ 'node_modules/jszip': { version: 'github:Stuk/jszip#3b98cfc' } });
    expect(flagged(findVulnerable(git, advisories))).toEqual(['node_modules/jszip@github:Stuk/jszip#3b98cfc unverifiable']);

    const v1 = {
      lockfileVersion: 1,
      dependencies: {
        'docx-reader': { version: '1.0.0', dependencies: { mammoth: { version: '1.9.1' }, 'pdf-old': { version: 'npm:pdfjs-dist@3.11.174' } } },
      },
    };
    expect(flagged(findVulnerable(v1, advisories))).toEqual(
      expect.arrayContaining([
        'node_modules/docx-reader/node_modules/mammoth@1.9.1 CVE-2025-11849 (GHSA-rmjr-87wv-gf87)',
        'node_modules/docx-reader/node_modules/pdf-old@3.11.174 CVE-2024-4367 (GHSA-wgrm-67xf-hhpq)',
      ]),
    );
  });

  it('the command fails on a lock with a vulnerable copy and names it, and passes on the repo lock', () => {
    const dir = tempDir();
    const lockFile = path.join(dir, 'package-lock.json');
    fs.writeFileSync(lockFile, JSON.stringify(fakeLock({ 'node_modules/x/node_modules/jszip': { version: '3.1.5' } })));
    const script = path.join(ROOT, 'scripts', 'check-advisories.ts');
    const bad = spawnSync(process.execPath, [script, lockFile], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('jszip@3.1.5 at node_modules/x/node_modules/jszip');
    expect(bad.stdout).toContain('CVE-2022-48285');
    const good = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
  });

  it('refuses a table row whose range is not a semver range', () => {
    const dir = tempDir();
    const file = path.join(dir, 'advisories.json');
    const rows = JSON.parse(fs.readFileSync(ADVISORIES_FILE, 'utf8')) as { advisories: object[] };
    rows.advisories.push({ package: 'jszip', range: 'before three-eight', id: 'X', kind: 'advisory', summary: '', source: '' });
    fs.writeFileSync(file, JSON.stringify(rows));
    expect(() => loadAdvisories(file)).toThrow(/not a semver range/);
  });
});
