import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { IPC_EVENT_CHANNEL } from '../../../shared/contract/ipc.ts';
import { emitApp, recorded } from '../../support/electron-stand-in.ts';
import { tempDir } from '../../support/workspace.ts';

const SHA = 'c'.repeat(64);
const LINK = `evidesk://open?sha256=${SHA}&page=47&start=120&end=188&text=annual+leave&answer=3&marker=1`;

/** The link.open events the window received, in order. */
const delivered = () =>
  recorded.windows[0]!.webContents.sent.filter(([channel, event]) => channel === IPC_EVENT_CHANNEL && (event as { type: string }).type === 'link.open').map(([, event]) => (event as { link: string }).link);

describe('electron/shell: the evidesk:// protocol reaches the open window (issue 17)', () => {
  beforeAll(async () => {
    process.env.EVIDESK_WORKSPACE = path.join(tempDir(), 'workspace');
    await import('../../../electron/shell/main.ts');
    await new Promise((r) => setTimeout(r, 50)); // app.whenReady() callbacks
  });

  it('takes the single-instance lock before anything else and registers the protocol at run time', () => {
    expect(recorded.singleInstanceLocks).toBe(1);
    expect(recorded.order.indexOf('app.requestSingleInstanceLock')).toBeLessThan(recorded.order.indexOf('ready'));
    expect(recorded.protocolClients.map((args) => args[0])).toEqual(['evidesk']);
    expect(recorded.appListeners.get('second-instance')).toHaveLength(1);
    expect(recorded.appListeners.get('open-url')).toHaveLength(1);
  });

  it('hands a second launch’s link to the open window and brings it forward', () => {
    const before = recorded.windows[0]!.focused;
    emitApp('second-instance', {}, ['/opt/Evidence Desk/evidence-desk', '--no-sandbox', LINK], '/home/me');
    expect(delivered()).toEqual([LINK]);
    expect(recorded.windows[0]!.focused).toBe(before + 1);
  });

  it('hands a macOS open-url link to the open window, taking the event', () => {
    let prevented = false;
    emitApp('open-url', { preventDefault: () => (prevented = true) }, LINK.replace('page=47', 'page=48'));
    expect(prevented).toBe(true);
    expect(delivered().at(-1)).toBe(LINK.replace('page=47', 'page=48'));
  });

  it('refuses links with a path, a script or markup: nothing reaches the window', () => {
    const count = delivered().length;
    for (const bad of [
      'evidesk:///etc/passwd',
      `evidesk://open?sha256=${SHA}&page=1&start=0&end=5&text=x&path=/etc/passwd`,
      `evidesk://open?sha256=${SHA}&page=1&start=0&end=5&text=javascript:alert(1)`,
      `evidesk://open?sha256=${SHA}&page=1&start=0&end=5&text=%3Cscript%3Ealert(1)%3C/script%3E`,
      `evidesk://open?sha256=${SHA}&page=1&start=0&end=5`,
    ]) {
      emitApp('second-instance', {}, ['/opt/evidence-desk', bad], '/');
      emitApp('open-url', { preventDefault: () => undefined }, bad);
    }
    expect(delivered()).toHaveLength(count);
  });
});
