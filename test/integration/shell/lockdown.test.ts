// The shell's lockdown (issue 8, item 4), asserted on what electron/shell registers with the
// recording stand-in for 'electron': our wiring, never Electron itself (DESIGN.md §9).
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SOURCE_CONTENT_SECURITY_POLICY } from '../../../shared/contract/csp.ts';
import { fail } from '../../../shared/contract/envelope.ts';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../../shared/contract/ipc.ts';
import { CONTENT_SECURITY_POLICY as HOST_CSP, TOKEN_HEADER } from '../../../electron/host/security.ts';
import { startHost } from '../../../electron/host/server.ts';
import { offerToOpenExternally } from '../../../electron/shell/external-links.ts';
import { handle, withoutInternals } from '../../../electron/shell/ipc.ts';
import { handleAppRequest } from '../../../electron/shell/protocol.ts';
import { emitApp, FakeSession, FakeWebContents, recorded, utilityChildren } from '../../support/electron-stand-in.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';

type Reply = { ok: boolean; value?: unknown; error?: { code: string; message: string } };
const FOREIGN = [
  'https://evil.example/',
  'http://127.0.0.1:8080/',
  'file:///etc/passwd',
  'app://source/1',
  'app://renderer.evil.example/index.html',
  'app://renderer@evil.example/index.html',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'about:blank',
  'not a url',
];

function navigationEvent(url: string): { url: string; preventDefault(): void; prevented: boolean } {
  const event = { url, prevented: false, preventDefault: () => (event.prevented = true) };
  return event;
}

function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('the locked-down shell', () => {
  let sourceText: string;

  beforeAll(async () => {
    const dir = tempDir();
    process.env.EVIDESK_WORKSPACE = path.join(dir, 'workspace');
    utilityChildren.real = true; // the ingest below runs through the app's utility-process launcher
    await import('../../../electron/shell/main.ts');
    await import('../../../electron/shell/preload.ts');
    await flush(); // app.whenReady() callbacks
    sourceText = 'Annual leave carries over for five days.\nThe rest lapses.\n';
    const file = writeFile(path.join(dir, 'docs'), 'leave.txt', sourceText);
    const reply = (await invoke('sources.ingest', { paths: [file] })) as Reply;
    expect(reply.ok).toBe(true);
  });

  const ourContents = () => recorded.windows[0]!.webContents;
  const invoke = (name: string, input: unknown, event: unknown = { sender: ourContents(), senderFrame: { url: 'app://renderer/index.html', parent: null } }) =>
    recorded.ipcHandlers.get(IPC_INVOKE_CHANNEL)!(event, name, input) as Promise<Reply>;

  it('enables the sandbox, app:// privileges and the webContents guards before ready, and only then opens a window', () => {
    const at = (what: string) => recorded.order.indexOf(what);
    expect(at('app.enableSandbox')).toBeGreaterThanOrEqual(0);
    expect(at('app.enableSandbox')).toBeLessThan(at('ready'));
    expect(at('protocol.registerSchemesAsPrivileged')).toBeLessThan(at('ready'));
    expect(at('app.on:web-contents-created')).toBeLessThan(at('ready'));
    expect(at('app.on:session-created')).toBeLessThan(at('ready'));
    expect(at('ready')).toBeLessThan(at('new BrowserWindow'));
  });

  it('gives the window exactly the checklist webPreferences, a preload, and an app://renderer page', () => {
    const prefs = recorded.windows[0]!.options.webPreferences as Record<string, unknown>;
    const { preload, ...rest } = prefs;
    expect(rest).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    });
    expect(String(preload)).toMatch(/preload\.cjs$/);
    expect(ourContents().loadedUrl).toBe('app://renderer/index.html');
  });

  describe('guards on every webContents (web-contents-created)', () => {
    // Ours, and one Electron might create later (a devtools page, a popup that slipped through).
    const everyContents = () => {
      const other = new FakeWebContents();
      emitApp('web-contents-created', { preventDefault: () => undefined }, other);
      return [ourContents(), other];
    };

    it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])('%s: foreign destinations are refused, our own pages are not', (name) => {
      for (const contents of everyContents()) {
        for (const url of FOREIGN) {
          const event = navigationEvent(url);
          contents.emit(name, event);
          expect(event.prevented, `${name} → ${url}`).toBe(true);
        }
        const own = navigationEvent('app://renderer/index.html#source-3');
        contents.emit(name, own);
        expect(own.prevented).toBe(false);
      }
    });

    it('refuses to attach a <webview> and denies every new window', () => {
      for (const contents of everyContents()) {
        let prevented = false;
        contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) }, {}, {});
        expect(prevented).toBe(true);
        for (const url of ['https://example.org/', 'app://renderer/index.html', 'about:blank', 'file:///etc/passwd']) {
          expect(contents.windowOpenHandler?.({ url, frameName: '', features: '', disposition: 'new-window' })).toEqual({ action: 'deny' });
        }
      }
    });
  });

  describe('links to the outside', () => {
    it('opens an https link only after a question that names its host, and only on yes', async () => {
      recorded.openedExternal.length = 0;
      recorded.messageBoxes.length = 0;
      recorded.messageBoxResponse = 0; // Cancel
      ourContents().windowOpenHandler?.({ url: 'https://www.example.org/policy?id=4' });
      await flush();
      expect(recorded.messageBoxes).toHaveLength(1);
      expect(String(recorded.messageBoxes[0]!.options.message)).toContain('www.example.org');
      expect(recorded.messageBoxes[0]!.options.cancelId).toBe(0);
      expect(recorded.messageBoxes[0]!.options.defaultId).toBe(0);
      expect(recorded.messageBoxes[0]!.parent).toBe(recorded.windows[0]);
      expect(recorded.openedExternal).toEqual([]);

      recorded.messageBoxResponse = 1; // Open in browser
      ourContents().windowOpenHandler?.({ url: 'https://www.example.org/policy?id=4' });
      await flush();
      expect(recorded.openedExternal).toEqual(['https://www.example.org/policy?id=4']);
      recorded.messageBoxResponse = 0;
    });

    it('names a look-alike host as the browser will reach it (punycode)', async () => {
      recorded.messageBoxes.length = 0;
      await offerToOpenExternally('https://exаmple.org/', null); // a Cyrillic а
      expect(String(recorded.messageBoxes[0]!.options.message)).toContain('xn--');
    });

    it('never offers anything but https: no question, nothing opened', async () => {
      recorded.openedExternal.length = 0;
      recorded.messageBoxes.length = 0;
      recorded.messageBoxResponse = 1;
      for (const url of ['http://example.org/', 'file:///etc/passwd', 'javascript:alert(1)', 'mailto:a@example.org', 'smb://host/share', 'https://user:pw@example.org/', 'app://source/1', 'not a url']) {
        expect(await offerToOpenExternally(url, ourContents() as never), url).toBe(false);
      }
      expect(recorded.messageBoxes).toEqual([]);
      expect(recorded.openedExternal).toEqual([]);
      expect(recorded.openedPaths).toEqual([]);
      recorded.messageBoxResponse = 0;
    });
  });

  describe('permissions', () => {
    function assertDeniesAll(ses: FakeSession): void {
      let granted: boolean | undefined;
      for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'display-capture', 'openExternal', 'hid', 'unknown']) {
        granted = undefined;
        ses.permissionRequestHandler?.({}, permission, (g: boolean) => (granted = g), {});
        expect(granted, permission).toBe(false);
        expect(ses.permissionCheckHandler?.(null, permission, 'app://renderer', {}), permission).toBe(false);
      }
      for (const deviceType of ['hid', 'serial', 'usb']) {
        expect(ses.devicePermissionHandler?.({ deviceType, origin: 'app://renderer', device: {} }), deviceType).toBe(false);
      }
      let streams: unknown = 'not called';
      ses.displayMediaRequestHandler?.({ frame: null, securityOrigin: 'app://renderer', videoRequested: true, audioRequested: true, userGesture: true }, (s: unknown) => (streams = s));
      expect(streams).toBeNull();
    }

    it('denies every permission request, check, device and display-media request in the default session', () => {
      assertDeniesAll(recorded.windows[0]!.webContents.session);
    });

    it('does the same in every session created later', () => {
      const later = new FakeSession();
      emitApp('session-created', later);
      assertDeniesAll(later);
    });
  });

  describe('IPC', () => {
    it('listens on one channel through handle() and on nothing else', () => {
      expect([...recorded.ipcHandlers.keys()]).toEqual([IPC_INVOKE_CHANNEL]);
      expect(recorded.ipcListeners).toEqual([]);
    });

    it('answers our window main frame, parsed by the contract', async () => {
      expect((await invoke('workspace.info', {})).ok).toBe(true);
      const bad = await invoke('sources.get', { id: '../../etc/passwd' });
      expect(bad.error?.code).toBe('INVALID_INPUT');
    });

    it('refuses a subframe, another webContents, another origin, and a call without a frame', async () => {
      const stranger = new FakeWebContents();
      const refused = [
        { sender: ourContents(), senderFrame: { url: 'app://renderer/index.html', parent: { url: 'app://renderer/index.html' } } },
        { sender: stranger, senderFrame: { url: 'app://renderer/index.html', parent: null } },
        { sender: ourContents(), senderFrame: { url: 'https://evil.example/', parent: null } },
        { sender: ourContents(), senderFrame: { url: 'app://source/1', parent: null } },
        { sender: ourContents(), senderFrame: { url: 'app://renderer.evil.example/', parent: null } },
        { sender: ourContents(), senderFrame: { url: 'file:///tmp/index.html', parent: null } },
        { sender: ourContents(), senderFrame: null },
      ];
      for (const event of refused) expect((await invoke('workspace.info', {}, event)).error?.code).toBe('FORBIDDEN');
    });

    it('sends errors without paths or stack traces; coded errors keep their sentence', async () => {
      handle('test:throws', () => {
        throw new Error("ENOENT: no such file or directory, open '/home/ana/cases/secret.pdf'\n    at open (/opt/Evidence Desk/resources/app.asar/dist/electron/main.mjs:1:2)");
      });
      const reply = (await recorded.ipcHandlers.get('test:throws')!({ sender: ourContents(), senderFrame: { url: 'app://renderer/index.html', parent: null } })) as Reply;
      expect(reply.error?.code).toBe('INTERNAL');
      expect(reply.error?.message).not.toMatch(/\/home|\/opt|app\.asar|\n|\bat open\b/);
      expect(reply.error?.message).toContain('ENOENT');
      const windows = withoutInternals(fail({ code: 'INTERNAL', message: 'Unexpected error: EPERM, open C:\\Users\\ana\\x.pdf' }));
      expect(JSON.stringify(windows)).not.toContain('Users');
      const coded = await invoke('sources.get', { id: 999 });
      expect(coded.error?.code).toBe('SOURCE_NOT_FOUND');
      expect(withoutInternals(fail({ code: 'FILE_MISSING', message: 'leave.pdf is missing from /data/x.' }))).toEqual(fail({ code: 'FILE_MISSING', message: 'leave.pdf is missing from /data/x.' }));
    });
  });

  describe('the preload', () => {
    it('exposes functions only, on fixed channels', async () => {
      const api = recorded.exposed.get('evidence') as Record<string, unknown>;
      for (const value of Object.values(api)) expect(typeof value).toBe('function');
      const bridge = api as { invoke(name: unknown, input: unknown): Promise<unknown> };
      recorded.rendererInvokes.length = 0;
      await bridge.invoke('workspace.info', {});
      await bridge.invoke({ toString: () => 'evidesk:other' }, {});
      expect(recorded.rendererInvokes.map((args) => args[0])).toEqual([IPC_INVOKE_CHANNEL, IPC_INVOKE_CHANNEL]);
      expect(recorded.rendererInvokes.every((args) => typeof args[1] === 'string')).toBe(true);
    });

    it("wraps event listeners: the page sees the event's data, never Electron's event object", () => {
      const api = recorded.exposed.get('evidence') as { onEvent(listener: unknown): () => void };
      const seen: unknown[][] = [];
      const off = api.onEvent((...args: unknown[]) => seen.push(args));
      const ipcEvent = { sender: { send: () => undefined }, ports: [] };
      for (const fn of recorded.rendererListeners.get(IPC_EVENT_CHANNEL) ?? []) fn(ipcEvent, { type: 'ingest.progress' });
      expect(seen).toEqual([[{ type: 'ingest.progress' }]]);
      off();
      expect(recorded.rendererListeners.get(IPC_EVENT_CHANNEL)).toEqual([]);
      expect(() => api.onEvent('not a function')).toThrow(TypeError);
      expect([...recorded.rendererListeners.keys()]).toEqual([IPC_EVENT_CHANNEL]);
    });
  });

  describe('app:// protocol', () => {
    it('registers app:// as standard, secure, fetchable and CORS-capable, without bypassing CSP', () => {
      expect(recorded.privilegedSchemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true, corsEnabled: true }) }]);
      expect(recorded.privilegedSchemes[0]!.privileges.bypassCSP).toBeUndefined();
    });

    it('serves source bytes by id with nosniff, a sandbox CSP, and CORS for app://renderer only', async () => {
      const app = recorded.protocolHandlers.get('app')!;
      const full = await app(new Request('app://source/1'));
      expect(full.status).toBe(200);
      expect(await full.text()).toBe(sourceText);
      const ranged = await app(new Request('app://source/1', { headers: { range: 'bytes=0-5' } }));
      expect(ranged.status).toBe(206);
      expect(await ranged.text()).toBe(sourceText.slice(0, 6));
      for (const reply of [full, ranged]) {
        expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
        expect(reply.headers.get('content-security-policy')).toBe(SOURCE_CONTENT_SECURITY_POLICY);
        expect(SOURCE_CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'.*sandbox/);
        expect(reply.headers.get('access-control-allow-origin')).toBe('app://renderer');
        expect(reply.headers.get('access-control-expose-headers')).toMatch(/accept-ranges.*content-range/);
      }
      const preflight = await app(new Request('app://source/1', { method: 'OPTIONS' }));
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toBe('range');
      expect(preflight.headers.get('access-control-allow-origin')).toBe('app://renderer');
      expect((await app(new Request('app://source/1', { method: 'POST', body: 'x' }))).status).toBe(405);
      for (const url of ['app://source/999', 'app://source/%2Fetc%2Fpasswd', 'app://source/1/../../etc/passwd', 'app://source/C:%5Cx', 'app://source/']) {
        const reply = await app(new Request(url));
        expect(reply.status, url).toBe(404);
        expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });

    it('serves the UI with the one CSP and nosniff, from inside its folder only, and no source maps', async () => {
      const services = openTestServices();
      try {
        const dir = tempDir();
        writeFile(dir, 'index.html', '<!doctype html><title>t</title>');
        writeFile(path.join(dir, 'assets'), 'app.js.map', '{}');
        const page = await handleAppRequest(new Request('app://renderer/index.html'), services, dir);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
        expect(page.headers.get('x-content-type-options')).toBe('nosniff');
        expect((await handleAppRequest(new Request('app://renderer/assets/app.js.map'), services, dir)).status).toBe(404);
        expect((await handleAppRequest(new Request('app://renderer/%2e%2e/%2e%2e/etc/passwd'), services, dir)).status).toBe(404);
      } finally {
        services.close();
      }
    });
  });

  describe('one CSP for Electron and the host', () => {
    const directives = () => new Map(CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values] as const;
    }));

    it("lets the viewer fetch app://source and nothing else remote; no eval, no inline script", () => {
      const csp = directives();
      expect(csp.get('connect-src')).toEqual(["'self'", 'app://source']);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(CONTENT_SECURITY_POLICY).not.toMatch(/'unsafe-eval'|https?:|wss?:|\*|file:/);
      // app://source appears in connect-src only.
      expect([...csp].filter(([, values]) => values.includes('app://source')).map(([name]) => name)).toEqual(['connect-src']);
    });

    it('is the very constant the loopback host sends', async () => {
      expect(HOST_CSP).toBe(CONTENT_SECURITY_POLICY);
      const services = openTestServices();
      const staticDir = tempDir();
      writeFile(staticDir, 'index.html', '<!doctype html><title>t</title>');
      const host = await startHost({ services, staticDir });
      try {
        const header = await new Promise<string | undefined>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port: host.port, path: '/index.html', headers: { host: `127.0.0.1:${host.port}`, [TOKEN_HEADER]: host.token } }, (res) => {
              res.resume();
              resolve(res.headers['content-security-policy'] as string | undefined);
            })
            .on('error', reject);
        });
        expect(header).toBe(CONTENT_SECURITY_POLICY);
      } finally {
        await host.close();
        services.close();
      }
    });
  });

  afterAll(() => {
    delete process.env.EVIDESK_WORKSPACE;
  });
});
