import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeHostFile, writeHostFile } from '../../../electron/host/host-file.ts';
import { startHost } from '../../../electron/host/server.ts';
import { TOKEN_HEADER } from '../../../electron/host/security.ts';
import type { LinkResolution } from '../../../shared/contract/link-schemas.ts';
import { parseCitationLink } from '../../../shared/links/citation-link.ts';
import { RENDERER_DIR } from '../../support/build.ts';
import { evidesk } from '../../support/cli.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { nativeAnswer, withPolicyWorkspace, type PolicyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

const CITATIONS = [
  { marker: '1', claim: 'Leave is 14 days.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
];

/** The links printed under "Evidence:", by the line before each. */
function evidence(out: string): { head: string; link: string }[] {
  const lines = out.slice(out.indexOf('Evidence:\n') + 'Evidence:\n'.length).split('\n');
  const pairs: { head: string; link: string }[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) pairs.push({ head: lines[i]!.trim(), link: lines[i + 1]!.trim() });
  return pairs;
}

/** Reads server-sent events from the host until one of type link.open arrives. */
async function nextLinkEvent(port: number, token: string, signal: AbortSignal): Promise<{ event: Promise<{ type: string; link: string }> }> {
  const res = await fetch(`http://127.0.0.1:${port}/events`, { headers: { [TOKEN_HEADER]: token }, signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const event = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffered += decoder.decode(value);
      const m = /data: (\{[^\n]*"link\.open"[^\n]*\})\n/.exec(buffered);
      if (m) return JSON.parse(m[1]!) as { type: string; link: string };
    }
  })();
  return { event };
}

describe('evidesk verify, search and open: file state, place and link per citation (issue 17)', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((o) => ({ services, ws } = o));

  it('verify prints, per citation, whether its file is there, its path, the place in words and the link', async () => {
    const answer = writeFile(ws.docs, 'answer.json', nativeAnswer(CITATIONS));
    const run = await evidesk(services.workspaceDir, 'verify', answer);
    expect(run.code).toBe(0);
    const ev = evidence(run.out);
    expect(ev.map((e) => e.head)).toEqual([`[1] [✓] ${ws.policy}, p. 3`, `[2] [✓] ${ws.notes}, line 6`]);
    for (const e of ev) expect(parseCitationLink(e.link).ok, e.link).toBe(true);
    const opened = await callHandler<LinkResolution>(services, 'links.resolve', { link: ev[1]!.link });
    expect(opened).toMatchObject({ state: 'found', how: 'offsets', where: 'line 6' });

    fs.renameSync(ws.policy, path.join(ws.docs, 'moved.pdf'));
    const after = await evidesk(services.workspaceDir, 'verify', answer);
    expect(evidence(after.out)[0]!.head).toBe(`[1] [✗ file moved] ${ws.policy}, p. 3`);
  });

  it('search prints the file state, path, place and a link that opens the hit', async () => {
    const run = await evidesk(services.workspaceDir, 'search', 'annual leave');
    expect(run.code).toBe(0);
    const [first] = evidence(run.out);
    expect(first!.head).toBe(`1. [✓] ${ws.policy}, p. 3`);
    const opened = await callHandler<LinkResolution>(services, 'links.resolve', { link: first!.link });
    expect(opened).toMatchObject({ state: 'found', fileName: 'HR_Policy.pdf', where: 'p. 3' });
  });

  it('open hands a link to the running host, whose page gets it; bad links and no host are coded errors', async () => {
    const answer = writeFile(ws.docs, 'answer.json', nativeAnswer(CITATIONS));
    const link = evidence((await evidesk(services.workspaceDir, 'verify', answer)).out)[0]!.link;

    const bad = await evidesk(services.workspaceDir, 'open', `${link}&path=/etc/passwd`);
    expect(bad.code).toBe(3);
    expect(bad.err).toMatch(/does not know: "path"\..*\[LINK_INVALID\]$/);
    const past = await evidesk(services.workspaceDir, 'open', link.replace(/start=\d+&end=\d+/, 'start=9000&end=9010'));
    expect(past.err).toMatch(/\[LINK_PLACE_INVALID\]$/);
    const none = await evidesk(services.workspaceDir, 'open', link);
    expect(none.code).toBe(3);
    expect(none.err).toMatch(/No Evidence Desk is running on the workspace .*\[HOST_NOT_RUNNING\]$/);

    const host = await startHost({ services, staticDir: RENDERER_DIR });
    writeHostFile(services.workspaceDir, host);
    const stop = new AbortController();
    try {
      // No page open yet: the command says where to open one.
      const unseen = await evidesk(services.workspaceDir, 'open', link);
      expect(unseen.code).toBe(0);
      expect(unseen.out).toContain(`http://127.0.0.1:${host.port}/?token=`);
      expect(unseen.out).toContain('#/open?sha256=');
      // A page of the desk listens (as the renderer does, over server-sent events).
      const { event } = await nextLinkEvent(host.port, host.token, stop.signal);
      await expect.poll(() => services.events.subscribers).toBe(1);
      const run = await evidesk(services.workspaceDir, 'open', link);
      expect(run.code).toBe(0);
      expect(run.out).toBe('Opened in the desk: HR_Policy.pdf, p. 3: the cited quote is marked.');
      expect(await event).toEqual({ type: 'link.open', link });
    } finally {
      stop.abort();
      removeHostFile(services.workspaceDir);
      await host.close();
    }
  });
});
