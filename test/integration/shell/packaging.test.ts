// Packaging that runs (issue 8, item 6). Always: electron-builder.yml passes electron-builder's own
// schema validation (app-builder-lib's scheme.json through its validateConfiguration), that
// validation refuses broken configs, the fuses/asar/npmRebuild settings are the locked-down ones,
// and asarUnpack holds every package the extraction worker loads. When ELECTRON_DIST names a
// local Electron distribution (none can be downloaded on the team's machines), the unpacked app
// directory is also built with electron-builder --dir and its fuses are read back from the binary.
import { getCurrentFuseWire } from '@electron/fuses';
import { listPackage } from '@electron/asar';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util';
import { build as esbuild } from 'esbuild';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { asarUnpackedUrl } from '../../../electron/services/ingest/asar-unpacked.ts';
import { ensureBuilt, ROOT } from '../../support/build.ts';
import { tempDir } from '../../support/workspace.ts';

async function loadConfig(file = 'electron-builder.yml'): Promise<Configuration> {
  return getConfig(ROOT, path.join(ROOT, file), null);
}

async function validate(config: Configuration): Promise<void> {
  await validateConfiguration(structuredClone(config), new DebugLogger(false));
}

/** The fuse settings the shipped app must have, by electron-builder's option names. */
const LOCKED_FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableCookieEncryption: true,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
};

/** @electron/fuses' wire positions (FuseV1Options) for the same settings. */
const FUSE_WIRE_INDEX: Record<keyof typeof LOCKED_FUSES, number> = {
  runAsNode: 0,
  enableCookieEncryption: 1,
  enableNodeOptionsEnvironmentVariable: 2,
  enableNodeCliInspectArguments: 3,
  enableEmbeddedAsarIntegrityValidation: 4,
  onlyLoadAppFromAsar: 5,
  grantFileProtocolExtraPrivileges: 7,
};

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The npm packages the extraction worker loads: its bundle's external imports and the packages it resolves by name. */
async function workerRootPackages(): Promise<string[]> {
  const result = await esbuild({
    entryPoints: [path.join(ROOT, 'electron/services/ingest/extract-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    metafile: true,
    outdir: tempDir(),
    logLevel: 'silent',
  });
  const names = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) if (imported.external && !imported.path.startsWith('node:')) names.add(packageName(imported.path));
  }
  for (const input of Object.keys(result.metafile.inputs)) {
    const source = fs.readFileSync(path.resolve(ROOT, input), 'utf8');
    for (const m of source.matchAll(/require(?:\.resolve)?\('([^'.][^']*)'\)/g)) if (!m[1]!.startsWith('node:')) names.add(packageName(m[1]!));
  }
  return [...names].sort();
}

interface LockPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dev?: boolean;
}

/** Every package those load in turn, resolved as Node resolves them in the lock file's tree. */
function closure(roots: string[]): Map<string, LockPackage> {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
  const resolve = (from: string, name: string): string | null => {
    let base = from;
    for (;;) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!base) return null;
      const i = base.lastIndexOf('/node_modules/');
      base = i < 0 ? '' : base.slice(0, i);
    }
  };
  const found = new Map<string, LockPackage>();
  const visit = (from: string, name: string, optional: boolean) => {
    const at = resolve(from, name);
    if (!at) {
      if (!optional) throw new Error(`${name} (needed by ${from || 'the worker'}) is not in package-lock.json`);
      return;
    }
    if (found.has(at)) return;
    const pkg = lock.packages[at]!;
    found.set(at, pkg);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(at, dep, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(at, dep, true);
  };
  for (const root of roots) visit('', root, false);
  return found;
}

const nameAt = (lockPath: string) => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
const unpacks = (patterns: string[], file: string) => patterns.some((p) => path.posix.matchesGlob(file, p));

describe('electron-builder configuration', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(validate(await loadConfig())).resolves.toBeUndefined();
  });

  it('and that validation refuses broken configurations (so passing it means something)', async () => {
    const config = await loadConfig();
    const broken: Array<[string, Configuration]> = [
      ['a misspelt fuse', { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } as never }],
      ['a fuse that is not a boolean', { ...config, electronFuses: { ...config.electronFuses, runAsNode: 'sometimes' } as never }],
      ['an unknown option', { ...config, asarUnpacked: ['dist/workers/**'] } as never],
      ['asar given as a number', { ...config, asar: 3 } as never],
    ];
    for (const [what, bad] of broken) {
      await expect(validate(bad), what).rejects.toThrow(/does not match the API schema/);
    }
  });

  it('sets every fuse of the checklist, asar on, and no native rebuild', async () => {
    const config = await loadConfig();
    // Strict: real YAML booleans, not strings the validator would coerce.
    expect(config.electronFuses).toStrictEqual(LOCKED_FUSES);
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
    expect(config.extraMetadata?.main).toBe('dist/electron/main.mjs');
    expect(JSON.stringify(config.files)).toContain('"!dist/**/*.map"');
    for (const target of ['linux', 'win', 'mac'] as const) expect(config[target], target).toBeTruthy();
  });

  it('has a separate e2e build that differs from the release only in the --inspect fuse, and builds elsewhere', async () => {
    const e2e = await loadConfig('electron-builder.e2e.yml');
    await validate(e2e);
    expect(e2e.electronFuses).toStrictEqual({ ...LOCKED_FUSES, enableNodeCliInspectArguments: true });
    const release = await loadConfig();
    expect(e2e.directories?.output).not.toBe(release.directories?.output);
    const { electronFuses: _a, directories: _b, extends: _c, ...rest } = e2e;
    const { electronFuses: _d, directories: _e, ...releaseRest } = release;
    expect(rest).toEqual(releaseRest);
  });

  it('unpacks the native module and the worker with every package it loads, and nothing else from node_modules', async () => {
    const patterns = (await loadConfig()).asarUnpack as string[];
    expect(unpacks(patterns, 'node_modules/better-sqlite3/prebuilds/linux-x64.node')).toBe(true);
    expect(unpacks(patterns, 'node_modules/better-sqlite3/lib/index.js')).toBe(false);
    expect(unpacks(patterns, 'dist/workers/extract-worker.mjs')).toBe(true);
    expect(unpacks(patterns, 'dist/electron/main.mjs')).toBe(false);
    expect(unpacks(patterns, 'dist/renderer/index.html')).toBe(false);

    const roots = await workerRootPackages();
    expect(roots).toEqual(expect.arrayContaining(['pdfjs-dist', 'mammoth', 'jszip', 'htmlparser2', 'chardet']));
    const needed = closure(roots);
    const names = new Set([...needed.keys()].map(nameAt));
    const missing = [...names].filter((name) => !unpacks(patterns, `node_modules/${name}/package.json`));
    expect(missing, 'add these to asarUnpack in electron-builder.yml').toEqual([]);
    const devOnly = [...needed].filter(([, pkg]) => pkg.dev).map(([at]) => at);
    expect(devOnly, 'the worker needs packages that are not shipped').toEqual([]);
    const stale = patterns.filter((p) => p.startsWith('node_modules/') && ![...names].some((name) => path.posix.matchesGlob(`node_modules/${name}/package.json`, p)));
    expect(stale, 'asarUnpack entries no worker package needs').toEqual([]);
  });

  it('finds the worker in app.asar.unpacked when packaged, and where it is otherwise', () => {
    const packaged = new URL('../workers/extract-worker.mjs', 'file:///opt/Evidence%20Desk/resources/app.asar/dist/electron/main.mjs');
    expect(asarUnpackedUrl(packaged).href).toBe('file:///opt/Evidence%20Desk/resources/app.asar.unpacked/dist/workers/extract-worker.mjs');
    const windows = new URL('file:///C:/Program%20Files/Evidence%20Desk/resources/app.asar/dist/workers/extract-worker.mjs');
    expect(asarUnpackedUrl(windows).href).toBe('file:///C:/Program%20Files/Evidence%20Desk/resources/app.asar.unpacked/dist/workers/extract-worker.mjs');
    for (const unchanged of [
      'file:///opt/Evidence%20Desk/resources/app.asar.unpacked/dist/workers/extract-worker.mjs',
      'file:///home/ana/evidence-desk/dist/workers/extract-worker.mjs',
      'file:///home/ana/my.app.asar/dist/workers/extract-worker.mjs',
    ]) {
      expect(asarUnpackedUrl(new URL(unchanged)).href).toBe(unchanged);
    }
  });
});

/** Where electron-builder --dir put the app, its fuse-bearing binary and its resources folder. */
function builtApp(out: string): { binary: string; resources: string } {
  if (process.platform === 'darwin') {
    const dir = fs.readdirSync(out).map((d) => path.join(out, d)).find((d) => fs.existsSync(path.join(d, 'Evidence Desk.app')))!;
    const app = path.join(dir, 'Evidence Desk.app');
    return { binary: app, resources: path.join(app, 'Contents', 'Resources') };
  }
  const dir = path.join(out, fs.readdirSync(out).find((d) => d.endsWith('-unpacked'))!);
  return { binary: path.join(dir, process.platform === 'win32' ? 'Evidence Desk.exe' : 'evidence-desk'), resources: path.join(dir, 'resources') };
}

async function buildAndInspect(electronDist: string): Promise<void> {
  ensureBuilt();
  const out = tempDir('evidesk-package-');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js'), '--dir', `-c.electronDist=${electronDist}`, `-c.directories.output=${out}`], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const { binary, resources } = builtApp(out);

  const wire = (await getCurrentFuseWire(binary)) as unknown as Record<string, number>;
  for (const [fuse, on] of Object.entries(LOCKED_FUSES)) {
    expect(wire[FUSE_WIRE_INDEX[fuse as keyof typeof LOCKED_FUSES]], fuse).toBe((on ? '1' : '0').charCodeAt(0));
  }

  const asar = path.join(resources, 'app.asar');
  expect(fs.existsSync(path.join(resources, 'app'))).toBe(false);
  const inside = new Set(listPackage(asar, { isPack: false }).map((p) => p.split(path.sep).join('/')));
  for (const file of ['/dist/electron/main.mjs', '/dist/electron/preload.cjs', '/dist/renderer/index.html', '/package.json']) expect(inside.has(file), file).toBe(true);
  expect([...inside].filter((p) => p.startsWith('/dist/') && p.endsWith('.map'))).toEqual([]);

  // The worker URL the pool computes from the main bundle names a real, unpacked file.
  const main = pathToFileURL(path.join(asar, 'dist', 'electron', 'main.mjs'));
  expect(fs.existsSync(fileURLToPath(asarUnpackedUrl(new URL('../workers/extract-worker.mjs', main))))).toBe(true);
  // Every package the worker loads that was shipped at all is shipped unpacked too.
  const unpacked = path.join(resources, 'app.asar.unpacked');
  const names = [...closure(await workerRootPackages()).keys()].map(nameAt);
  const shipped = names.filter((name) => inside.has(`/node_modules/${name}/package.json`));
  expect(shipped).toEqual(expect.arrayContaining(['pdfjs-dist', 'mammoth']));
  expect(shipped.filter((name) => !fs.existsSync(path.join(unpacked, 'node_modules', name, 'package.json')))).toEqual([]);
  expect(fs.readdirSync(path.join(unpacked, 'node_modules', 'better-sqlite3', 'prebuilds')).some((f) => f.endsWith('.node'))).toBe(true);
  fs.rmSync(out, { recursive: true, force: true });
}

describe('packaging that runs', () => {
  it(
    'validates the configuration and its fuses, and with ELECTRON_DIST builds the unpacked app and reads its fuses back',
    async () => {
      const config = await loadConfig();
      await validate(config);
      expect(config.electronFuses).toStrictEqual(LOCKED_FUSES);
      const electronDist = process.env.ELECTRON_DIST;
      if (electronDist) await buildAndInspect(electronDist);
    },
    600_000,
  );
});
