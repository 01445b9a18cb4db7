/**
 * audit.verify runs the chain's check in a worker thread (issue 16), on a read-only connection of
 * its own: it says what the check on the main thread says, for an intact record and for a tampered one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../../electron/services/create-services.ts';
import { chainedWorkspace, copyWorkspace, tamperer } from '../../support/audit-workspace.ts';
import { testPlatform } from '../../support/workspace.ts';

const opened: Services[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

describe('audit.verify in a worker thread', () => {
  it('agrees with the check on the main thread, intact and after a row was edited', async () => {
    const ws = copyWorkspace(await chainedWorkspace());
    const services = createServices(testPlatform(), ws);
    opened.push(services);
    const intact = await services.dispatch('audit.verify', {});
    expect(intact.ok && intact.value).toEqual(services.audit.check());
    expect(intact.ok && intact.value).toMatchObject({ ok: true });

    const raw = tamperer(ws);
    raw.prepare("UPDATE citations SET quote = 'a quote nobody wrote' WHERE id = (SELECT min(id) FROM citations)").run();
    raw.close();
    const broken = await services.dispatch('audit.verify', {});
    expect(broken.ok && broken.value).toEqual(services.audit.check());
    expect(broken.ok && broken.value).toMatchObject({ ok: false, brokenAt: { kind: 'edited', table: 'citations' } });
  });
});
