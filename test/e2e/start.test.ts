import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/build.ts';
import { launchChromium } from '../support/chromium.ts';
import { tempDir } from '../support/workspace.ts';

describe('npm start where Electron cannot start', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('says why, serves browser mode, and Chromium at the printed URL shows the app', async () => {
    ensureBuilt();
    const workspace = path.join(tempDir(), 'workspace');
    const env: NodeJS.ProcessEnv = { ...process.env, EVIDESK_WORKSPACE: workspace };
    // No display here (and none on CI): the reason the fallback must name.
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    delete env.EVIDESK_BROWSER_MODE;
    child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 30_000);
      const onData = (d: Buffer) => {
        output += d.toString();
        const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child?.stdout?.on('data', onData);
      child?.stderr?.on('data', onData);
    });
    expect(output).toContain('Electron cannot start here: there is no display');
    expect(output).toContain('Serving the same app in browser mode');
    expect(output).toContain(`Workspace: ${workspace}`);

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(url);
      await page.getByRole('heading', { name: 'Evidence Desk' }).waitFor();
      await expect.poll(() => page.locator('.workspace').textContent()).toContain('browser mode');
      await expect.poll(() => page.locator('.workspace').textContent()).toContain(workspace);
    } finally {
      await browser.close();
    }
  });
});
