// `evidesk verify --database` (issue 13): an answer file checked and stored on a shared workspace,
// verified over the shared pool's sources, with the verdicts the local workspace it was moved from
// gives; --save stores the answer there as the reviewer, and the single chain stays whole.
import fs from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../../electron/cli/main.ts';
import { grantMember } from '../../../electron/services/store/postgres/team.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer } from '../../support/policy-workspace.ts';
import { evidesk } from '../../support/cli.ts';
import { workspaceToMigrate } from '../../support/migrate-workspace.ts';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { tempDir } from '../../support/workspace.ts';

let server: TestPostgres;
let owner: pg.Client;
let local: string;
let reviewerUrl: string;
let auditorUrl: string;
let answerFile: string;

beforeAll(async () => {
  [server, local] = await Promise.all([startTestPostgres(), workspaceToMigrate()]);
  owner = await server.owner();
  const moved = await evidesk(local, 'workspace', 'migrate', '--from', local, '--to', server.ownerUrl, '--project', 'alpha');
  if (moved.code !== 0) throw new Error(`migrate failed: ${moved.err}${moved.out}`);
  const member = async (name: string, level: 'reviewer' | 'auditor', projects: string[]): Promise<string> => {
    await grantMember(owner, { login: `${server.loginPrefix}${name}`, password: `pw-${name}`, level, projects });
    return server.urlFor(`${server.loginPrefix}${name}`, `pw-${name}`);
  };
  reviewerUrl = await member('reviewer', 'reviewer', ['alpha']);
  auditorUrl = await member('auditor', 'auditor', []);
  answerFile = writeFile(
    tempDir('evidesk-pg-verify-'),
    'answer.json',
    nativeAnswer([
      { marker: '1', claim: 'Leave is 14 days.', quote: '14 days of annual leave', source: { file: 'HR_Policy.pdf' } },
      { marker: '2', claim: 'Leave is 20 days.', quote: 'Employees receive 20 days of leave', source: { file: 'HR_Policy.pdf' } },
      { marker: '3', claim: 'Receipts are kept.', quote: 'Receipts are kept for seven years.', source: { file: 'handbook.md' } },
      { marker: '4', claim: 'Offices close at six.', quote: 'The office closes at six on Fridays.', source: { file: 'notice.html' } },
      { marker: '5', claim: 'The budget was approved.', quote: 'The budget was approved.', source: { file: 'Budget.xlsx' } },
    ]),
  );
}, 180_000);

afterAll(async () => {
  await owner?.end();
  await server?.close();
});

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t) };
  const code = await runCli(argv, io, {});
  return { code, out: out.join('\n'), err: err.join('\n') };
}

type Checked = { citations: { marker: string; status: string; verdict: string; score: number; match: { file: string; text: string } | null }[] };
const verdicts = (r: Checked) => r.citations.map((c) => ({ marker: c.marker, status: c.status, verdict: c.verdict, score: c.score, file: c.match?.file ?? null, text: c.match?.text ?? null }));

describe('evidesk verify --database', () => {
  it('checks an answer over the shared pool with the verdicts of the local workspace, storing nothing', { timeout: 120_000 }, async () => {
    const localRun = await cli(['--workspace', local, 'verify', answerFile, '--json']);
    const folder = tempDir('evidesk-pg-verify-empty-');
    const shared = await cli(['--workspace', folder, '--database', reviewerUrl, 'verify', answerFile, '--json']);
    expect(shared.code, shared.err).toBe(localRun.code);
    const sharedVerdicts = verdicts(JSON.parse(shared.out) as Checked);
    expect(sharedVerdicts).toEqual(verdicts(JSON.parse(localRun.out) as Checked));
    expect(sharedVerdicts.map((v) => v.status)).toEqual(['verified', 'not_found', 'verified', 'verified', 'source_unknown']);
    expect(fs.readdirSync(folder)).toEqual([]);
    const text = await cli(['--workspace', folder, '--database', reviewerUrl, 'verify', answerFile]);
    expect(text.out).toContain('5 citations: 3 verified');
  });

  it('stores the answer with --save as the reviewer, in the chain an auditor walks whole', { timeout: 120_000 }, async () => {
    const before = Number((await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM answers')).rows[0]?.n);
    const saved = await cli(['--workspace', tempDir('evidesk-pg-verify-save-'), '--database', reviewerUrl, 'verify', answerFile, '--save']);
    expect(saved.out).toMatch(/Stored as answer \d+\./);
    const id = Number(/Stored as answer (\d+)\./.exec(saved.out)?.[1]);
    expect(Number((await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM answers')).rows[0]?.n)).toBe(before + 1);
    const statuses = (await owner.query<{ status: string }>('SELECT r.status FROM citation_results r JOIN citations c ON c.id = r.citation_id WHERE c.answer_id = $1 ORDER BY c.ordinal', [id])).rows;
    expect(statuses.map((r) => r.status)).toEqual(['verified', 'not_found', 'verified', 'verified', 'source_unknown']);
    const audit = await cli(['--workspace', tempDir('evidesk-pg-verify-audit-'), '--database', auditorUrl, 'audit', 'verify', '--json']);
    expect(audit.code, audit.out).toBe(0);
  });
});
