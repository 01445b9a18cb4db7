import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnswerDetail, CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { addSmallSources, bigAnswer } from '../../support/scale-workspace.ts';
import { evidesk } from '../../support/cli.ts';
import { callHandler, openTestServices } from '../../support/workspace.ts';

describe('evidesk cards --show --limit --after (issue 16)', () => {
  it('walks an answer’s citations a page at a time, filtered as the desk filters them', async () => {
    const services = openTestServices();
    const ws = services.workspaceDir;
    addSmallSources(services.sources, path.join(services.dir, 'notes'), 10);
    const imported = await callHandler<AnswerDetail>(services, 'answers.import', { content: bigAnswer(30, 10), fileName: 'items.json' });
    services.close();

    const walk = async (show: string) => {
      const markers: string[] = [];
      let after: string | null = null;
      for (let i = 0; i < 20; i++) {
        const run = await evidesk(ws, 'cards', String(imported.answer.id), '--json', '--show', show, '--limit', '7', ...(after ? ['--after', after] : []));
        expect(run.code).toBe(0);
        const page = JSON.parse(run.out) as { citations: CitationDetail[]; next: string | null };
        markers.push(...page.citations.map((c) => c.marker));
        after = page.next;
        if (after === null) break;
      }
      return markers;
    };
    expect(await walk('all')).toEqual(imported.citations.map((c) => c.marker));
    // Every 7th quote is in no note: the risk flag's citations and the not-found status agree.
    const missing = ['7', '14', '21', '28'];
    expect(await walk('flag:missing_evidence')).toEqual(missing);
    expect(await walk('status:not_found')).toEqual(missing);

    const text = await evidesk(ws, 'cards', 'items.json', '--limit', '5');
    expect(text.out).toContain('note-000004.txt');
    expect(text.out).toMatch(/More: evidesk cards \d+ --show all --limit 5 --after '.+'/);
    const bad = await evidesk(ws, 'cards', 'items.json', '--show', 'everything');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--show takes one of');
    const badCursor = await evidesk(ws, 'cards', 'items.json', '--after', 'nonsense');
    expect(badCursor.code).toBe(3);
    expect(badCursor.err).toContain('cursor');
  });
});
