import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HANDLER_NAMES } from '../../../shared/contract/contract.ts';
import { IPC_INVOKE_CHANNEL } from '../../../shared/contract/ipc.ts';
import { ROOT } from '../../support/build.ts';
import { recorded } from '../../support/electron-stand-in.ts';
import { tempDir } from '../../support/workspace.ts';

/** A call from our window's main frame, as Electron describes it to an ipcMain handler. */
const trusted = () => ({ sender: recorded.windows[0]!.webContents, senderFrame: { url: 'app://renderer/index.html', parent: null } });

describe('electron/shell wiring (against a recording stand-in for electron)', () => {
  beforeAll(async () => {
    process.env.EVIDESK_WORKSPACE = path.join(tempDir(), 'workspace');
    await import('../../../electron/shell/main.ts');
    await import('../../../electron/shell/preload.ts');
    await new Promise((r) => setTimeout(r, 50)); // app.whenReady() callbacks
  });

  it('creates the window with the secure webPreferences and a preload', () => {
    expect(recorded.windows).toHaveLength(1);
    const prefs = recorded.windows[0]?.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, webSecurity: true, webviewTag: false });
    expect(String(prefs.preload)).toMatch(/preload\.cjs$/);
    expect(recorded.windows[0]?.webContents.loadedUrl).toBe('app://renderer/index.html');
  });

  it('routes every contract handler through the one IPC channel', async () => {
    const handler = recorded.ipcHandlers.get(IPC_INVOKE_CHANNEL);
    expect(handler).toBeTypeOf('function');
    for (const name of HANDLER_NAMES) {
      const reply = (await handler?.(trusted(), name, {})) as { ok: boolean; error?: { code: string } };
      // A handler may refuse {} as input, but it must exist.
      if (!reply.ok) expect(reply.error?.code).not.toBe('UNKNOWN_HANDLER');
    }
    const unknown = (await handler?.(trusted(), 'no.such.handler', {})) as { ok: boolean; error: { code: string } };
    expect(unknown.error.code).toBe('UNKNOWN_HANDLER');
  });

  it('refuses calls from other senders: subframes and foreign origins', async () => {
    const handler = recorded.ipcHandlers.get(IPC_INVOKE_CHANNEL);
    const sender = recorded.windows[0]!.webContents;
    const fromFrame = (await handler?.({ sender, senderFrame: { url: 'app://renderer/index.html', parent: {} } }, 'workspace.info', {})) as { error: { code: string } };
    expect(fromFrame.error.code).toBe('FORBIDDEN');
    const foreign = (await handler?.({ sender, senderFrame: { url: 'https://evil.example/', parent: null } }, 'workspace.info', {})) as { error: { code: string } };
    expect(foreign.error.code).toBe('FORBIDDEN');
  });

  it('denies navigation away from the app and every new window (details in lockdown.test.ts)', () => {
    const wc = recorded.windows[0]!.webContents;
    let prevented = false;
    wc.emit('will-navigate', { url: 'https://evil.example/', preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    prevented = false;
    wc.emit('will-navigate', { url: 'file:///etc/passwd', preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    prevented = false;
    wc.emit('will-navigate', { url: 'app://renderer/index.html#answers', preventDefault: () => (prevented = true) });
    expect(prevented).toBe(false);
    expect(wc.windowOpenHandler?.({ url: 'https://example.org/' })).toEqual({ action: 'deny' });
    expect(wc.windowOpenHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
  });

  it('registers app:// as privileged and its protocol refuses unknown sources and escapes', async () => {
    expect(recorded.privilegedSchemes).toEqual([expect.objectContaining({ scheme: 'app' })]);
    const handle = recorded.protocolHandlers.get('app')!;
    expect((await handle(new Request('app://source/999'))).status).toBe(404);
    expect((await handle(new Request('app://source/abc'))).status).toBe(404);
    expect((await handle(new Request('app://renderer/%2E%2E/%2E%2E/package.json'))).status).toBe(404);
    expect((await handle(new Request('app://elsewhere/x'))).status).toBe(404);
  });

  it('exposes only invoke, onEvent and getPathForFile to the page, never ipcRenderer', () => {
    const api = recorded.exposed.get('evidence') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['getPathForFile', 'invoke', 'onEvent']);
  });

  it("imports 'electron' nowhere outside electron/shell", () => {
    const importsElectron = /from ['"]electron['"]|require\(['"]electron['"]\)/;
    const offenders: string[] = [];
    let shellFiles = 0;
    for (const dir of ['electron', 'shared', 'renderer', 'scripts']) {
      for (const rel of fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
        const file = path.join(dir, rel);
        if (!/\.(ts|tsx|js|mjs|cjs)$/.test(file) || !importsElectron.test(fs.readFileSync(path.join(ROOT, file), 'utf8'))) continue;
        if (file.startsWith(`electron${path.sep}shell${path.sep}`)) shellFiles++;
        else offenders.push(file);
      }
    }
    expect(shellFiles).toBeGreaterThan(0);
    expect(offenders).toEqual([]);
  });
});
