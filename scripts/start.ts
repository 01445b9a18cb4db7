// `npm start`: launch the Electron app; where Electron cannot start (no binary, no display), say
// why and serve the same app in browser mode on 127.0.0.1.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);

function electronBinary(): { path: string } | { reason: string } {
  if (process.env.EVIDESK_BROWSER_MODE === '1') return { reason: 'EVIDESK_BROWSER_MODE=1 asks for browser mode' };
  // Checked first: without a display there is no point in fetching or starting the binary.
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  }
  let binary: string;
  try {
    // The electron package exports the path of its binary, and throws when the binary is absent.
    binary = createRequire(import.meta.url)('electron') as string;
  } catch (e) {
    return { reason: `the Electron binary is not installed (${(e as Error).message.split('\n')[0]})` };
  }
  if (!fs.existsSync(binary)) return { reason: `the Electron binary is missing at ${binary}` };
  return { path: binary };
}

async function browserMode(reason: string): Promise<void> {
  process.stdout.write(`Electron cannot start here: ${reason}.\nServing the same app in browser mode instead.\n\n`);
  const { runBrowserMode } = (await import(path.join(root, 'dist', 'host', 'main.mjs'))) as {
    runBrowserMode(argv: readonly string[], staticDir: string): Promise<void>;
  };
  await runBrowserMode(args, path.join(root, 'dist', 'renderer'));
}

const found = electronBinary();
if ('reason' in found) {
  await browserMode(found.reason);
} else {
  const child = spawn(found.path, [path.join(root, 'dist', 'electron', 'main.mjs'), ...args], { stdio: ['inherit', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    process.stderr.write(d);
  });
  const started = Date.now();
  child.on('error', (e) => void browserMode(`launching Electron failed (${e.message})`));
  child.on('exit', (code) => {
    // An immediate failure means Electron could not start at all: fall back, loudly.
    if (code !== 0 && Date.now() - started < 10_000) void browserMode(`Electron exited at once with code ${code} (${stderr.trim().split('\n').pop() ?? ''})`);
    else process.exit(code ?? 0);
  });
}
