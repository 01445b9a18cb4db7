/**
 * The answerers (offline and an OpenAI-compatible endpoint), on both engines (issue 13): on
 * PostgreSQL the workspace is moved there first and each answer asked for is stored and
 * re-verified there, as a reviewer. Retrieval and anchoring still read the workspace's own copy
 * of the sources (those reads are not on the store interface yet), so the source restricted
 * mid-test is restricted there.
 */
import { beforeEach, expect, it } from 'vitest';
import { NOT_FOUND_ANSWER } from '../../../electron/services/answerers/offline.ts';
import { AnchoringStore } from '../../../electron/services/store/anchoring-store.ts';
import { AnswersStore } from '../../../electron/services/store/answers-store.ts';
import { SearchStore } from '../../../electron/services/store/search-store.ts';
import { AnswersService } from '../../../electron/services/verification/answers-service.ts';
import { Verifier } from '../../../electron/services/verification/verifier.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { startModelEndpoint, type ChatRequest } from '../../support/model-endpoint.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { ownerSql } from '../../support/engine-rows.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { ingestAll, policyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

/** The passage number whose text contains `needle`, read from the prompt the answerer sent. */
function passageWith(req: ChatRequest, needle: string): number {
  const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
  for (const part of user.split(/\n\n(?=\[\d+\] \()/)) {
    const m = /^\[(\d+)\] \(/.exec(part.replace(/^[\s\S]*?Passages:\n\n/, ''));
    if (m && part.includes(needle)) return Number(m[1]);
  }
  return 0;
}

describeEngines('the answerers', (engine) => {
  let opened: Opened<number>;
  let services: TestServices;
  let secretId = 0;
  beforeEach(async () => {
    opened = await engine.open(
      async (s) => {
        const ws = await policyWorkspace(s);
        const secret = writeFile(ws.docs, 'board-minutes.txt', 'Board minutes (confidential)\n\nDirectors receive 40 days of annual leave per calendar year under the executive plan.\n');
        return (await ingestAll(s, [secret]))['board-minutes.txt'] ?? 0;
      },
      { as: 'reviewer' },
    );
    ({ services, prepared: secretId } = opened);
  });

  /** An answers service of its own (its model settings), storing through the engine in use. */
  const serviceWith = (model: { baseUrl?: string; model?: string; timeoutMs?: number }, env: Record<string, string> = {}) => {
    const db = services.db;
    const anchoring = new AnchoringStore(db);
    return new AnswersService(new AnswersStore(db), anchoring, new Verifier(anchoring, new SearchStore(db)), { model, env, evidence: services.evidence });
  };

  it('offline: every sentence is a verbatim source sentence with a verified citation', async () => {
    const reply = await services.dispatch('answers.ask', { question: 'When does unused annual leave lapse?' });
    if (!reply.ok) throw new Error(reply.error.message);
    const d = reply.value as AnswerDetail;
    expect(d.answer).toMatchObject({ format: 'evidesk-offline', origin: 'offline' });
    expect(d.citations.length).toBeGreaterThan(0);
    expect(d.citations[0]?.quote).toBe('Unused leave lapses on 31 March of the following year.');
    for (const c of d.citations) {
      expect(c.result).toMatchObject({ status: 'verified', score: 1, method: 'exact' });
      expect(c.source?.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(d.answer.answerText).toContain(`${c.claim} [${c.marker}]`);
      // The quote is the exact range of the stored text.
      const [seg] = await ownerSql<{ text: string }>(opened, 'SELECT text FROM segments WHERE id = ?', [c.result?.segmentId]);
      expect(seg?.text.slice(c.result?.start ?? 0, c.result?.end ?? 0)).toBe(c.quote);
    }
  });

  it('offline: nothing relevant, or hits too weak, gives exactly the not-found answer with no citations', async () => {
    for (const question of ['What is the capital of Mongolia?', 'What is the parking policy for electric bicycles at the Berlin office?', '???']) {
      const d = await services.answers.ask(question, false);
      expect(d.answer.answerText).toBe("Not found in the workspace's documents.");
      expect(d.answer.answerText).toBe(NOT_FOUND_ANSWER);
      expect(d.citations).toEqual([]);
      expect(d.run?.summary.total).toBe(0);
    }
  });

  it('model: sends numbered passages, never a restricted source, maps markers and flags uncited sentences', async () => {
    const server = await startModelEndpoint((req) => {
      const n = passageWith(req, 'Employees receive 14 days');
      return `Employees receive 14 days of annual leave per calendar year [${n}]. Leave requests go through the staff portal. Directors get "a company jet for holidays" [${n}]. Managers decide everything [7].`;
    });
    try {
      // Control: without the restriction, the board minutes are retrieved and sent.
      const svc = serviceWith({ baseUrl: server.baseUrl, model: 'local-test' }, { EVIDESK_MODEL_API_KEY: 'sk-test' });
      await svc.ask('How many days of annual leave per calendar year?', true);
      expect(server.received.join('\n')).toContain('Directors receive 40 days');
      expect(server.headers[0]?.authorization).toBe('Bearer sk-test');

      // Restricted where retrieval reads it: the workspace's own copy.
      services.db.prepare('UPDATE sources SET restricted = 1 WHERE id = ?').run(secretId);
      server.received.length = 0;
      const d = await svc.ask('How many days of annual leave per calendar year?', true);
      expect(server.received).toHaveLength(1);
      const sent = server.received.join('\n');
      expect(sent).not.toContain('Directors receive 40 days');
      expect(sent).not.toContain('board-minutes');
      expect(sent).toContain('Employees receive 14 days of annual leave per calendar year.');
      const req = JSON.parse(server.received[0] ?? '{}') as ChatRequest;
      expect(req.model).toBe('local-test');

      expect(d.answer.format).toBe('openai-compatible');
      expect(d.answer.origin).toBe('model:local-test');
      const [first, jet, invented] = d.citations;
      expect(first).toMatchObject({ claim: 'Employees receive 14 days of annual leave per calendar year.', source: { fileName: 'HR_Policy.pdf' }, result: { status: 'verified', verdict: 'supported' } });
      expect(jet).toMatchObject({ quote: 'a company jet for holidays', result: { status: 'not_found' } });
      expect(invented).toMatchObject({ marker: '7', source: null, result: { status: 'source_unknown' } });
      const flags = d.run?.riskFlags ?? [];
      expect(flags.find((f) => f.code === 'uncited_sentence')?.message).toMatch(/staff portal/);
      // The flag about the answer's text survives re-verification.
      expect((await svc.verifyJudged(d.answer.id)).run?.riskFlags.map((f) => f.code)).toContain('uncited_sentence');
    } finally {
      await server.close();
    }
  });

  it('model: a reply that cites nothing, or NOT_FOUND, becomes the not-found answer', async () => {
    const replies = ['NOT_FOUND', 'Employees get plenty of leave. It is generous.'];
    const server = await startModelEndpoint(() => replies.shift() ?? 'NOT_FOUND');
    try {
      const svc = serviceWith({ baseUrl: server.baseUrl, model: 'm' });
      const a = await svc.ask('How much annual leave do employees receive?', true);
      expect(a.answer.answerText).toBe(NOT_FOUND_ANSWER);
      const b = await svc.ask('How much annual leave do employees receive?', true);
      expect(b.answer.answerText).toBe(NOT_FOUND_ANSWER);
      expect(b.citations).toEqual([]);
      expect(b.run?.riskFlags.map((f) => f.code)).toEqual(['uncited_sentence']);
      // Nothing relevant retrieved: the endpoint is not even called.
      const before = server.received.length;
      const c = await svc.ask('What is the capital of Mongolia?', true);
      expect(c.answer.answerText).toBe(NOT_FOUND_ANSWER);
      expect(server.received.length).toBe(before);
    } finally {
      await server.close();
    }
  });

  it('model: coded errors when unconfigured, unreachable, failing or too slow', async () => {
    const code = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        return e instanceof AppError ? e.code : String(e);
      }
      return 'no error';
    };
    expect(await code(serviceWith({}).ask('annual leave days?', true))).toBe('MODEL_NOT_CONFIGURED');
    const failing = await startModelEndpoint(() => ({ status: 500, body: 'model crashed' }));
    expect(await code(serviceWith({ baseUrl: failing.baseUrl, model: 'm' }).ask('annual leave days?', true))).toBe('MODEL_ENDPOINT_FAILED');
    await failing.close();
    expect(await code(serviceWith({ baseUrl: failing.baseUrl, model: 'm' }).ask('annual leave days?', true))).toBe('MODEL_ENDPOINT_FAILED');
    const slow = await startModelEndpoint(() => 'late [1].', 1000);
    try {
      expect(await code(serviceWith({ baseUrl: slow.baseUrl, model: 'm', timeoutMs: 100 }).ask('annual leave days?', true))).toBe('MODEL_ENDPOINT_FAILED');
    } finally {
      await slow.close();
    }
    // Nothing was stored for the failed questions.
    expect(await callHandler<unknown[]>(services, 'answers.list', {})).toHaveLength(0);
  });
});
