/**
 * Keyset pages of citation cards (issue 16, Done-when 3), on both engines (issue 13, Done-when 1):
 * every filter walked page by page against what the full answer says, with decisions and new
 * citations landing between pages, and cursors of other lists refused. The answers are imported
 * locally; on PostgreSQL the workspace is then moved and answers.get, answers.open, answers.cards,
 * answers.cardsSummary and answers.detail read PostgreSQL as a reviewer of the project, under
 * row-level security; the decisions between pages are written there too (answers.review).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, it } from 'vitest';
import { createServices } from '../../../electron/services/create-services.ts';
import { pgEvidenceStore } from '../../../electron/services/store/postgres/pg-evidence-store.ts';
import { PgStore } from '../../../electron/services/store/postgres/pg-store.ts';
import { ensureProject, grantInProject } from '../../../electron/services/store/postgres/team.ts';
import type { AnswerDetail, CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import type { CiteResult } from '../../../shared/contract/citation-schemas.ts';
import { CARD_FILTERS, PROBLEM_STATUSES, PROBLEM_VERDICTS, type AnswerOpen, type AnswerOpening, type CardFilter, type CardListSummary, type CardPage } from '../../../shared/contract/card-schemas.ts';
import { unpackMarks } from '../../../shared/contract/packed-marks.ts';
import { describeEngines, ENGINE_PROJECT, type Opened } from '../../support/engines.ts';
import { addSmallSources, bigAnswer } from '../../support/scale-workspace.ts';
import { callHandler, testPlatform, type TestServices } from '../../support/workspace.ts';

const SOURCES = 40;
const CITATIONS = 230;
const SESSION = 'keyset-session';

/** What a filter shows, worked out from the full answer (answers.detail) card by card. */
function bruteForce(detail: AnswerDetail, filter: CardFilter): number[] {
  const flags = detail.run?.riskFlags ?? [];
  const pick = (c: CitationDetail): boolean => {
    const s = c.result?.status ?? null;
    const v = c.result?.verdict ?? null;
    if (filter === 'all') return true;
    if (filter === 'unreviewed') return c.review === null;
    if (filter === 'problems') return c.review?.decision === 'flagged' || s === null || PROBLEM_STATUSES.includes(s) || (v !== null && PROBLEM_VERDICTS.includes(v));
    const [kind, value] = filter.split(':');
    if (kind === 'status') return s === value;
    if (kind === 'verdict') return v === value;
    return flags.some((f) => f.code === value && f.markers.includes(c.marker));
  };
  return detail.citations.filter(pick).map((c) => c.id);
}

/** An agent's cite of item `i` into the session, in the project a move puts local answers in. */
const citeInput = (i: number) => ({
  claim: `Item ${i} is kept in the record.`,
  quote_context: `item ${i}`,
  verbatim_quote: `the record keeps item ${i} of the matter`,
  source: `note-${String(i).padStart(6, '0')}.txt`,
  context: { session_id: SESSION, project_id: ENGINE_PROJECT },
});

interface Prepared {
  answerId: number;
  /** The agent session's answer, twelve citations in. */
  sessionAnswerId: number;
  sourceIds: number[];
}

/** The sources, the big answer with four decisions, and an agent's session of twelve cites, made through today's services. */
async function prepare(services: TestServices): Promise<Prepared> {
  const sourceIds = addSmallSources(services.sources, path.join(services.dir, 'notes'), SOURCES);
  const imported = await callHandler<AnswerDetail>(services, 'answers.import', { content: bigAnswer(CITATIONS, SOURCES), fileName: 'items.json' });
  // Some decisions, so the review filters have something to tell apart.
  for (const [i, decision] of [[2, 'accepted'], [9, 'flagged'], [40, 'rejected'], [41, 'accepted']] as const) {
    const c = imported.citations[i];
    if (c) await callHandler(services, 'answers.review', { citationId: c.id, decision, ...(decision === 'accepted' && c.result?.status === 'not_found' ? { note: 'checked by hand' } : {}) });
  }
  let sessionAnswerId = 0;
  for (let i = 0; i < 12; i++) {
    const cited = await callHandler<CiteResult>(services, 'citations.cite', citeInput(i));
    sessionAnswerId = (services.db.prepare('SELECT answer_id FROM citations WHERE id = ?').get(cited.citation_id) as { answer_id: number }).answer_id;
  }
  return { answerId: imported.answer.id, sessionAnswerId, sourceIds };
}

describeEngines('citation cards in keyset pages', (engine) => {
  // One workspace per engine, made at the first ask; the tests run in order (the decisions come after the reads).
  let shared: Promise<Opened<Prepared>> | undefined;
  const open = () => (shared ??= engine.open(prepare, { as: 'reviewer', scope: 'suite' }));

  const page = (services: TestServices, id: number, filter: CardFilter, limit: number, after?: string) =>
    callHandler<CardPage>(services, 'answers.cards', { id, filter, limit, ...(after ? { after } : {}) });
  const detailOf = (services: TestServices, id: number) => callHandler<AnswerDetail>(services, 'answers.detail', { id });

  /** Every page of a filter, `between(pageNumber)` run after each page but the last. */
  async function walk(services: TestServices, id: number, filter: CardFilter, limit: number, between?: (k: number) => Promise<void>): Promise<number[]> {
    const ids: number[] = [];
    let after: string | undefined;
    for (let k = 0; ; k++) {
      const p = await page(services, id, filter, limit, after);
      expect(p.rows.length).toBeLessThanOrEqual(limit);
      ids.push(...p.rows.map((r) => r.citation.id));
      if (p.next === null) return ids;
      expect(p.rows.length).toBe(limit);
      expect(p.next).toBe(p.rows[p.rows.length - 1]?.cursor);
      after = p.next;
      await between?.(k);
    }
  }

  it('walks every filter page by page: no card skipped or repeated, in answer order, as the full answer says', async () => {
    const { services, prepared } = await open();
    expect(services.evidence.engine).toBe(engine.name);
    const id = prepared.answerId;
    const detail = await detailOf(services, id);
    const opened = await callHandler<AnswerOpen>(services, 'answers.get', { id });
    expect(opened.marks.map((m) => m.id)).toEqual(detail.citations.map((c) => c.id));
    expect(opened.marks.map((m) => m.status)).toEqual(detail.citations.map((c) => c.result?.status ?? null));
    expect(opened.run).toEqual(detail.run);
    let nonEmpty = 0;
    for (const filter of CARD_FILTERS) {
      const expected = bruteForce(detail, filter);
      const walked = await walk(services, id, filter, 17);
      expect(walked, filter).toEqual(expected);
      expect(new Set(walked).size).toBe(walked.length);
      // Counts from SQL: a filter that shows nothing is left out (except "all").
      expect(opened.counts[filter] ?? 0, filter).toBe(expected.length);
      const summary = await callHandler<CardListSummary>(services, 'answers.cardsSummary', { id, filter, pageSize: 17 });
      expect(summary.ids).toEqual(expected);
      expect(summary.total).toBe(expected.length);
      // The page starts reach each page by its key: page k is the k-th slice of the list.
      for (const [k, after] of summary.pageStarts.entries()) {
        const p = await page(services, id, filter, 17, after ?? undefined);
        expect(p.rows.map((r) => r.citation.id)).toEqual(expected.slice(k * 17, k * 17 + 17));
      }
      if (expected.length > 0) nonEmpty += 1;
    }
    // The fixture reaches the filters it means to: statuses, verdicts, reviews and a risk flag.
    expect(opened.counts['flag:missing_evidence']).toBe(Math.floor(CITATIONS / 7));
    expect(opened.counts.unreviewed).toBe(CITATIONS - 4);
    expect(nonEmpty).toBeGreaterThanOrEqual(6);
  });

  it('builds each card as the full answer does, pages of 50 as the desk asks for them', async () => {
    const { services, prepared } = await open();
    const detail = await detailOf(services, prepared.answerId);
    const cards: CitationDetail[] = [];
    let after: string | undefined;
    do {
      const p = await page(services, prepared.answerId, 'all', 50, after);
      cards.push(...p.rows.map((r) => r.citation));
      after = p.next ?? undefined;
    } while (after !== undefined);
    expect(cards).toEqual(detail.citations);
  });

  it('opens the answer in one call (answers.open) with what answers.get, answers.cardsSummary and answers.cards give, under each filter', async () => {
    const { services, prepared } = await open();
    const id = prepared.answerId;
    const { marks, ...head } = await callHandler<AnswerOpen>(services, 'answers.get', { id });
    // The decisions of the fixture are among the marks, so every packed field is exercised.
    expect(marks.filter((m) => m.decision !== null)).toHaveLength(4);
    for (const filter of CARD_FILTERS) {
      const opening = await callHandler<AnswerOpening>(services, 'answers.open', { id, filter, pageSize: 17 });
      const { marks: packed, list, first, ...rest } = opening;
      expect(rest, filter).toEqual(head);
      expect(unpackMarks(packed), filter).toEqual(marks);
      expect(list, filter).toEqual(await callHandler<CardListSummary>(services, 'answers.cardsSummary', { id, filter, pageSize: 17 }));
      expect(first, filter).toEqual(await page(services, id, filter, 17));
    }
    // Its packing is smaller than the marks as objects.
    const opening = await callHandler<AnswerOpening>(services, 'answers.open', { id });
    expect(JSON.stringify(opening.marks).length * 3).toBeLessThan(JSON.stringify(marks).length);
  });

  it('skips none when decisions take cards out of the filter between pages', async () => {
    const { services, prepared } = await open();
    const id = prepared.answerId;
    const before = bruteForce(await detailOf(services, id), 'unreviewed');
    const seen = before[5] as number;
    const ahead = before[60] as number;
    const walked = await walk(services, id, 'unreviewed', 20, async (k) => {
      if (k !== 0) return;
      // One card already walked and one not yet reached leave the filter (on PostgreSQL, decisions written there).
      await callHandler(services, 'answers.review', { citationId: seen, decision: 'flagged' });
      await callHandler(services, 'answers.review', { citationId: ahead, decision: 'rejected' });
    });
    expect(walked).toEqual(before.filter((c) => c !== ahead));
    const after = await callHandler<AnswerOpen>(services, 'answers.get', { id });
    expect(after.counts.unreviewed).toBe(CITATIONS - 6);
    expect(after.marks.find((m) => m.id === ahead)?.decision).toBe('rejected');
  });

  it('keeps its order while an agent cites into the session between pages', async () => {
    const { services, prepared, database } = await open();
    const id = prepared.sessionAnswerId;
    // citations.cite writes the local workspace only (its area is not on the store interface yet):
    // on PostgreSQL the citations between pages are written by PgStore.addCitation, the shared
    // store's own cite (as the owner, whom row-level security does not bind to its own sessions).
    const owner = database ? await PgStore.connect(database.ownerUrl) : null;
    try {
      const added: number[] = [];
      const cite = async (i: number): Promise<number> => {
        if (owner) {
          const sourceId = prepared.sourceIds[i % SOURCES] as number;
          return (await owner.addCitation({ answerId: id, marker: String(13 + added.length), claim: `Item ${i} is kept in the record.`, quote: `the record keeps item ${i} of the matter`, sourceId, locator: {} })).id;
        }
        return (await callHandler<CiteResult>(services, 'citations.cite', citeInput(i))).citation_id;
      };
      const walked = await walk(services, id, 'all', 5, async () => {
        added.push(await cite(20 + added.length));
      });
      const all = (await detailOf(services, id)).citations.map((c) => c.id);
      // Each card once, in answer order; those cited meanwhile come after the walk's start, none lost.
      expect(new Set(walked).size).toBe(walked.length);
      expect(walked).toEqual(all.slice(0, walked.length));
      expect(walked.length).toBeGreaterThan(12);
      expect(all.length).toBe(12 + added.length);
      expect(walked).toEqual(expect.arrayContaining(added.slice(0, -1)));
    } finally {
      await owner?.close();
    }
  });

  it('refuses a cursor it did not give out, naming the field', async () => {
    const { services, prepared } = await open();
    const id = prepared.answerId;
    // Not JSON; the sources list's cursor (a file name as its key); a date-keyed list's.
    for (const after of ['not-a-cursor', JSON.stringify(['note-000003.txt', 4]), JSON.stringify(['2026-01-01T00:00:00.000Z', 2])]) {
      await expect(page(services, id, 'all', 5, after), after).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'after' } });
    }
    // A cursor of this list is good on the summary's pages too.
    const first = await page(services, id, 'problems', 5);
    expect((await page(services, id, 'problems', 5, first.next ?? undefined)).rows[0]?.citation.id).not.toBe(first.rows[0]?.citation.id);
  });

  if (engine.name === 'postgres') {
    it("on a shared workspace, a reviewer of another project has no cards of this project's answers", async () => {
      const { services, prepared, database } = await open();
      const login = `${database!.loginPrefix}outsider`;
      const password = randomBytes(9).toString('hex');
      const owner = await database!.owner();
      try {
        await ensureProject(owner, 'other', 'Another engagement');
        await grantInProject(owner, { login, level: 'reviewer', project: 'other', password });
      } finally {
        await owner.end();
      }
      const outsider = pgEvidenceStore(await PgStore.connect(database!.urlFor(login, password)));
      const desk = Object.assign(createServices(testPlatform(), services.workspaceDir, { evidence: outsider }), { dir: services.dir });
      try {
        const id = prepared.answerId;
        // Row-level security hides the answer and its citations: the pages read as absent.
        for (const [name, input] of [
          ['answers.get', { id }],
          ['answers.open', { id }],
          ['answers.cards', { id, filter: 'all', limit: 50 }],
          ['answers.cardsSummary', { id, filter: 'all', pageSize: 50 }],
        ] as const) {
          const r = await desk.dispatch(name, input);
          expect(r.ok ? null : r.error.code, name).toBe('ANSWER_NOT_FOUND');
        }
        const ids = (await services.evidence.cards.keys(id)).map((k) => k.id);
        expect(ids).toHaveLength(CITATIONS);
        expect(await outsider.cards.keys(id)).toEqual([]);
        expect(await outsider.cards.citations(ids)).toEqual([]);
        expect(await outsider.cards.counts(id, '[]')).toEqual({ all: 0 });
      } finally {
        desk.close();
        await outsider.close();
      }
    });
  }
});
