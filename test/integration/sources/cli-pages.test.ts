import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SourceSummary } from '../../../shared/contract/schemas.ts';
import { addSmallSources } from '../../support/scale-workspace.ts';
import { evidesk } from '../../support/cli.ts';
import { openTestServices } from '../../support/workspace.ts';

describe('evidesk sources --limit --after (issue 16)', () => {
  it('prints a page and the cursor of the next, which walks the whole list once', async () => {
    const services = openTestServices();
    const ws = services.workspaceDir;
    addSmallSources(services.sources, path.join(services.dir, 'notes'), 23);
    services.close();

    const names: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const run = await evidesk(ws, 'sources', '--json', '--sort', 'name', '--limit', '10', ...(after ? ['--after', after] : []));
      expect(run.code).toBe(0);
      const page = JSON.parse(run.out) as { sources: SourceSummary[]; next: string | null };
      names.push(...page.sources.map((s) => s.fileName));
      after = page.next;
      if (after === null) break;
    }
    expect(names).toEqual(Array.from({ length: 23 }, (_, i) => `note-${String(i).padStart(6, '0')}.txt`));

    const text = await evidesk(ws, 'sources', '--limit', '5', '--sort', 'name', '--filter', 'note-00001');
    expect(text.out).toContain('note-000010.txt');
    expect(text.out).toMatch(/More: evidesk sources --limit 5 --after '.+'/);
    const last = await evidesk(ws, 'sources', '--filter', 'note-000022');
    expect(last.out).toContain('note-000022.txt');
    expect(last.out).not.toContain('note-000021.txt');

    const bad = await evidesk(ws, 'sources', '--limit', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--limit takes a whole number');
    const badCursor = await evidesk(ws, 'sources', '--after', 'nonsense');
    expect(badCursor.code).toBe(3);
    expect(badCursor.err).toContain('cursor');
  });
});
