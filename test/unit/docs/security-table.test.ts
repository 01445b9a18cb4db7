// The README's security table names, for every checklist line, the tests that hold it: a renamed or
// deleted test file would leave a line unguarded without anyone noticing, so the names are checked.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

function securityRows(): { line: string; tests: string[] }[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Security\n');
  expect(start).toBeGreaterThan(0);
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---') && !l.startsWith('| Checklist line'))
    .map((l) => {
      const cells = l.split(' | ');
      const testsCell = cells[cells.length - 1] ?? '';
      return { line: cells[0]!.slice(2), tests: [...testsCell.matchAll(/`(test\/[^`]+\.test\.ts)`/g)].map((m) => m[1]!) };
    });
}

describe('README security table', () => {
  it('lists every checklist line with at least one test file, and every file it names exists', () => {
    const rows = securityRows();
    // The checklist (../shared/SECURITY-CHECKLIST.md) has 22 lines; each has a row.
    expect(rows.length).toBeGreaterThanOrEqual(22);
    for (const row of rows) {
      expect(row.tests.length, row.line).toBeGreaterThan(0);
      for (const t of row.tests) expect(fs.existsSync(path.join(root, t)), `${t} (for: ${row.line})`).toBe(true);
    }
  });
});
