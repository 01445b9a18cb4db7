/**
 * Cites of several agents at once share one transaction (same-turn-commit.ts): each write is
 * still whole or absent, one that fails fails alone, and the record and verdicts are those of the
 * same cites made one after another.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/services/store/database.ts';
import { SameTurnCommit } from '../../../electron/services/store/same-turn-commit.ts';
import type { CiteResult } from '../../../shared/contract/citation-schemas.ts';
import { callHandler, openTestServices, tempDir, type TestServices } from '../../support/workspace.ts';

describe('writes of one turn', () => {
  it('share one transaction, and one that throws is rolled back alone', async () => {
    const db = openDatabase(path.join(tempDir('evidesk-same-turn-'), 'workspace'));
    try {
      db.exec('CREATE TABLE scratch (x TEXT NOT NULL)');
      let commits = 0;
      const group = new SameTurnCommit(db, () => commits++);
      const insert = (x: string) => db.prepare('INSERT INTO scratch (x) VALUES (?)').run(x);
      const seen: number[] = [];
      const outcomes = await Promise.allSettled([
        group.run(() => insert('a').changes),
        group.run(() => {
          insert('b');
          throw new Error('refused');
        }),
        group.run(() => {
          // The first write is visible: the same transaction, not yet committed.
          seen.push((db.prepare('SELECT count(*) AS n FROM scratch').get() as { n: number }).n);
          expect(db.inTransaction).toBe(true);
          return insert('c').changes;
        }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
      expect(seen).toEqual([1]);
      expect(commits).toBe(1);
      expect((db.prepare('SELECT x FROM scratch ORDER BY rowid').all() as { x: string }[]).map((r) => r.x)).toEqual(['a', 'c']);
      expect(db.inTransaction).toBe(false);
    } finally {
      db.close();
    }
  });
});

const TEXT = Array.from({ length: 60 }, (_, i) => `Clause ${i + 1}: the tenant pays the rent of ${100 + i} euros before day ${(i % 28) + 1} of each month.`).join('\n');
const quote = (i: number) => `the tenant pays the rent of ${100 + i} euros before day ${(i % 28) + 1} of each month`;

interface Step {
  session: string;
  i: number;
  line: number;
  supersedes?: string;
}

/** Cites in turns: the cites of one turn at once, the turns one after another; a correction names its target by the key it was cited under. */
async function citeTurns(turns: Step[][], atOnce: boolean): Promise<{ results: Record<string, CiteResult>; summaries: Record<string, unknown>; audit: { ok: boolean } }> {
  const services: TestServices = openTestServices();
  try {
    const docs = path.join(services.dir, 'docs');
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, 'lease.txt'), `${TEXT}\n`);
    await callHandler(services, 'sources.ingest', { paths: [docs] });
    const results: Record<string, CiteResult> = {};
    const cite = async (s: Step): Promise<void> => {
      const related = s.supersedes ? [{ citation_id: (results[s.supersedes] as CiteResult).citation_id, relation: 'supersedes' }] : [];
      results[`${s.session}:${s.i}:${s.line}`] = await callHandler<CiteResult>(services, 'citations.cite', {
        claim: `The tenant pays ${100 + s.i} euros.`,
        quote_context: quote(s.i),
        verbatim_quote: quote(s.i),
        source: 'lease.txt',
        locator: { line: s.line },
        related,
        context: { session_id: s.session, agent_id: `agent-${s.session}`, user_id: 'u', project_id: 'p' },
      });
    };
    for (const turn of turns) {
      if (atOnce) await Promise.all(turn.map(cite));
      else for (const s of turn) await cite(s);
    }
    const answers = await callHandler<{ question: string | null; citationCount: number; latestRun: { summary: unknown } | null }[]>(services, 'answers.list', {});
    const summaries = Object.fromEntries(answers.map((a) => [a.question, { count: a.citationCount, summary: a.latestRun?.summary }]));
    const audit = await callHandler<{ ok: boolean }>(services, 'audit.verify', {});
    const stable = Object.fromEntries(Object.entries(results).map(([k, r]) => [k, { ...r, citation_id: 0, next_step: '', supersedes: r.supersedes === null ? null : 1 }]));
    return { results: stable as unknown as Record<string, CiteResult>, summaries, audit };
  } finally {
    services.close();
  }
}

describe('cites of several agents at once', () => {
  it('store and judge as the same cites one after another, corrections across sessions included', async () => {
    const turns: Step[][] = [
      // Each session's ledger is known to the process before the turns that matter.
      [{ session: 'a', i: 0, line: 1 }, { session: 'b', i: 1, line: 2 }, { session: 'c', i: 2, line: 9 }],
      // Two cites of one session in one turn.
      [{ session: 'b', i: 6, line: 7 }, { session: 'b', i: 7, line: 8 }, { session: 'a', i: 8, line: 1 }],
      // A correction of b's citation, then b cites again in the same turn: b's ledger must not count the superseded one.
      [{ session: 'a', i: 1, line: 2, supersedes: 'b:1:2' }, { session: 'b', i: 3, line: 4 }, { session: 'c', i: 4, line: 5 }, { session: 'c', i: 5, line: 30 }],
      // b alone: its run summarises what the process remembers of its ledger.
      [{ session: 'b', i: 9, line: 10 }],
    ];
    const together = await citeTurns(turns, true);
    const apart = await citeTurns(turns, false);
    expect(together.audit.ok).toBe(true);
    expect(together.summaries).toEqual(apart.summaries);
    expect(together.results).toEqual(apart.results);
    // b's latest run counts its current citations only: the superseded one has left.
    expect(together.summaries['Agent session b']).toMatchObject({ count: 4, summary: { total: 4 } });
    expect(Object.values(together.results).map((r) => r.status)).toContain('verified_elsewhere');
  });
});
