// The shell's start-up refuses a runtime whose Node-API is older than better-sqlite3's prebuilds
// need, in a sentence, before it opens a workspace or a window (checklist: "napi ≥ 10 guard").
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorded } from '../../support/electron-stand-in.ts';
import { tempDir } from '../../support/workspace.ts';

describe('the shell on a runtime with Node-API 9', () => {
  const real = Object.getOwnPropertyDescriptor(process, 'versions')!;

  beforeAll(async () => {
    process.env.EVIDESK_WORKSPACE = path.join(tempDir(), 'workspace');
    Object.defineProperty(process, 'versions', { ...real, value: { ...process.versions, napi: '9', electron: '30.0.0' } });
    try {
      await import('../../../electron/shell/main.ts');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      Object.defineProperty(process, 'versions', real);
    }
  });
  afterAll(() => {
    delete process.env.EVIDESK_WORKSPACE;
  });

  it('says why it cannot start, and opens neither a window nor the services', () => {
    expect(recorded.errorBoxes).toEqual([['Evidence Desk cannot start', expect.stringMatching(/Electron 30\.0\.0 offers Node-API 9.*Node-API 10/)]]);
    expect(recorded.windows).toEqual([]);
    expect(recorded.ipcHandlers.size).toBe(0);
    expect(recorded.protocolHandlers.size).toBe(0);
  });

  it('has locked down the app all the same (sandbox, guards, permissions) before it gave up', () => {
    expect(recorded.order).toContain('app.enableSandbox');
    expect(recorded.appListeners.get('web-contents-created')).toHaveLength(1);
  });
});
