// Lines of ../shared/SECURITY-CHECKLIST.md that are about how the code is put together rather than
// about one component's behaviour (those live beside the component: see README "Security").
import { build as esbuild } from 'esbuild';
import JSZip from 'jszip';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contract } from '../../../shared/contract/contract.ts';
import { nodeApiProblem, REQUIRED_NODE_API } from '../../../electron/services/store/node-api.ts';
import { ROOT } from '../../support/build.ts';
import { makeWordPackage, para, run } from '../../support/word-fixtures.ts';
import { openTestServices, tempDir } from '../../support/workspace.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

/** The source files a bundle of `entry` would contain (our own files only). */
async function bundleInputs(entry: string): Promise<string[]> {
  const result = await esbuild({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    external: ['electron'],
    write: false,
    metafile: true,
    outdir: tempDir(),
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs).map((p) => path.relative(ROOT, path.resolve(ROOT, p)).split(path.sep).join('/'));
}

function versionTuple(v: string): number[] {
  return v.replace(/^[^\d]*/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);
}
const atLeast = (v: string, min: string) => {
  const [a, b] = [versionTuple(v), versionTuple(min)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
};

describe('checklist: Electron / renderer (the parts not in test/integration/shell)', () => {
  it('serves no file:// pages: the shell loads only app://renderer and never loadFile', async () => {
    const inputs = (await bundleInputs('electron/shell/main.ts')).filter((f) => f.startsWith('electron/shell/'));
    expect(inputs.length).toBeGreaterThan(3);
    for (const file of inputs) {
      const source = read(file);
      expect(source, file).not.toMatch(/\.loadFile\s*\(|['"`]file:\/\//);
      for (const m of source.matchAll(/\.loadURL\(([^)]*)\)/g)) expect(m[1], file).toMatch(/^`\$\{RENDERER_ORIGIN\}\//);
    }
  });

  it('reads document bytes by id only: every content operation takes a source id, never a path or URL', () => {
    for (const name of ['sources.content', 'sources.pageText', 'sources.get'] as const) {
      const shape = (contract[name].input as unknown as { shape: Record<string, unknown> }).shape;
      expect(Object.keys(shape), name).toEqual(expect.arrayContaining(['id']));
      expect(Object.keys(shape).filter((k) => /path|url|file/i.test(k)), name).toEqual([]);
      expect(contract[name].input.safeParse({ id: '/etc/passwd' }).success, name).toBe(false);
    }
    // The renderer builds source URLs from a number (app://source/<id>, /source/<id>).
    expect(read('renderer/src/api/client.ts')).toMatch(/sourceUrl\(sourceId: number\): string/);
  });

  it('never calls shell.openPath (the app has no open-file feature; reveal only shows the folder)', () => {
    for (const dir of ['electron', 'renderer/src']) {
      for (const rel of fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
        if (!/\.(ts|tsx)$/.test(rel)) continue;
        expect(read(path.join(dir, rel)), rel).not.toMatch(/\bopenPath\s*\(/);
      }
    }
  });

  it('touches ipcMain in one file only: the handle() wrapper', () => {
    const users = (fs.readdirSync(path.join(ROOT, 'electron'), { recursive: true }) as string[])
      .filter((rel) => rel.endsWith('.ts') && /\bipcMain\b/.test(read(path.join('electron', rel))))
      .map((rel) => rel.split(path.sep).join('/'));
    expect(users).toEqual(['shell/ipc.ts']);
    expect(read('electron/shell/ipc.ts').match(/ipcMain\.\w+/g)).toEqual(['ipcMain.handle']);
  });

  it('the Electron main never starts the loopback host', async () => {
    const inputs = await bundleInputs('electron/shell/main.ts');
    expect(inputs).toContain('electron/shell/main.ts');
    expect(inputs.filter((f) => f.startsWith('electron/host/') && f !== 'electron/host/static-files.ts' && f !== 'electron/host/security.ts')).toEqual([]);
    // No server API anywhere in the bundle. The web sources' fetch (issue 11) is the one client of
    // node:http(s) and uses node:net's address checks; it may import them, but never listen.
    const clientOnly = (f: string) => f.startsWith('electron/services/web/');
    for (const file of inputs.filter((f) => f.startsWith('electron/'))) {
      const text = read(file);
      // PgChangeFeed.listen is a database client's LISTEN (a shared workspace's live updates, issue 13), not a server.
      expect(text, file).not.toMatch(/createServer\s*\(|(?<!PgChangeFeed)\.listen\s*\(|new\s+(?:net\.)?Server\s*\(/);
      if (!clientOnly(file)) expect(text, file).not.toMatch(/from 'node:(http|https|net)'/);
    }
  });
});

describe('checklist: dependencies / runtime', () => {
  it('runs the tests on Node 24 (node@24 devDependency); engines.node is at least the checklist floor and enough for Node-API 10', () => {
    expect(versionTuple(pkg.devDependencies.node!)[0]).toBe(24);
    expect(versionTuple(process.versions.node)[0]).toBe(24);
    // Decided: engines.node ">=24". The checklist's floor is 22.12, but better-sqlite3 13's
    // prebuilds need Node-API 10, which Node 22 has only from 22.14, and 24 is the runtime tested.
    const floor = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(pkg.engines.node)?.[1];
    expect(floor, `engines.node is ${pkg.engines.node}`).toBeDefined();
    expect(atLeast(floor!, '22.12.0')).toBe(true);
    expect(atLeast(floor!, '22.14.0')).toBe(true);
    expect(atLeast(pkg.devDependencies.node!, floor!)).toBe(true);
  });

  it('pins better-sqlite3 in ^13.2, installed so', () => {
    for (const version of [pkg.dependencies['better-sqlite3']!, (JSON.parse(read('node_modules/better-sqlite3/package.json')) as { version: string }).version]) {
      const [major, minor] = versionTuple(version);
      expect(major).toBe(13);
      expect(minor).toBeGreaterThanOrEqual(2);
    }
  });

  it('guards Node-API >= 10: the required version is the one the binding is built for, and older runtimes are refused in a sentence', () => {
    const gyp = read('node_modules/better-sqlite3/binding.gyp');
    expect(Number(/NAPI_VERSION=(\d+)/.exec(gyp)?.[1])).toBe(REQUIRED_NODE_API);
    expect(REQUIRED_NODE_API).toBeGreaterThanOrEqual(10);
    const prebuild = fs.readFileSync(path.join(ROOT, 'node_modules/better-sqlite3/prebuilds', `${process.platform === 'linux' ? 'linux' : process.platform}-${process.arch}.node`));
    expect(prebuild.includes('node_api_module_get_api_version_v1')).toBe(true); // a Node-API module, versioned
    expect(nodeApiProblem(process.versions)).toBeNull();
    expect(nodeApiProblem({ node: '22.12.0', napi: '9' })).toMatch(/Node\.js 22\.12\.0 offers Node-API 9.*needs Node-API 10/);
    expect(nodeApiProblem({ electron: '30.0.0', napi: '9' })).toMatch(/^Electron 30\.0\.0/);
    expect(nodeApiProblem({ node: '24.0.0', napi: '10' })).toBeNull();
    expect(nodeApiProblem({ node: '99.0.0' })).toBeNull(); // not reported: nothing to check
  });

  it('never rebuilds native modules (npmRebuild: false) and lists every package with an install script in allowScripts', () => {
    expect(read('electron-builder.yml')).toMatch(/^npmRebuild: false$/m);
    expect(pkg.allowScripts['better-sqlite3']).toBe(false); // prebuilds, no node-gyp
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript)
      .map(([at]) => at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !(name in pkg.allowScripts))).toEqual([]);
  });
});

describe('checklist: ingestion / parsing (the parser options)', () => {
  it('runs pdf.js at a version without an eval path, with XFA off and no scripting, in ingestion and viewer alike', () => {
    const installed = (JSON.parse(read('node_modules/pdfjs-dist/package.json')) as { version: string }).version;
    expect(atLeast(installed, '6.3.0')).toBe(true);
    expect(pkg.dependencies['pdfjs-dist']).toBe(installed);
    expect((JSON.parse(read('node_modules/react-pdf/package.json')) as { dependencies: Record<string, string> }).dependencies['pdfjs-dist']).toBe(installed);
    for (const build of ['build/pdf.mjs', 'build/pdf.worker.mjs', 'legacy/build/pdf.mjs', 'legacy/build/pdf.worker.mjs']) {
      expect(read(`node_modules/pdfjs-dist/${build}`), build).not.toMatch(/\bnew Function\s*\(|\beval\s*\(|isEvalSupported/);
    }
    // The main process opens every PDF with one options object; the viewer has its own.
    for (const file of ['electron/services/ingest/pdfjs.ts', 'renderer/src/features/viewer/pdfjs-setup.ts']) {
      const source = read(file);
      expect(source, file).toMatch(/enableXfa: false/);
      expect(source, file).not.toMatch(/enableXfa: true|enableScripting|isEvalSupported: true/);
    }
    const opened: string[] = [];
    for (const rel of fs.readdirSync(path.join(ROOT, 'electron'), { recursive: true }) as string[]) {
      if (!/\.ts$/.test(rel)) continue;
      const source = read(path.join('electron', rel));
      for (const call of source.matchAll(/getDocument\(\{([^}]*)/g)) {
        opened.push(rel);
        expect(call[1], `${rel} opens a PDF without DOCUMENT_OPTIONS`).toMatch(/\.\.\.DOCUMENT_OPTIONS/);
      }
    }
    expect(opened.length).toBeGreaterThanOrEqual(2); // ingestion and report excerpts
    // pdf.js's scripting sandbox is never loaded anywhere.
    for (const dir of ['electron', 'renderer/src']) {
      for (const rel of fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
        if (/\.(ts|tsx)$/.test(rel)) expect(read(path.join(dir, rel)), rel).not.toMatch(/pdf\.sandbox|PDFScriptingManager/);
      }
    }
  });

  it('reads no linked file out of a Word document (mammoth externalFileAccess:false), and the viewer sanitises with DOMPurify', async () => {
    const secretDir = tempDir();
    const secret = Buffer.from('89504e470d0a1a0a' + 'SECRET-LINKED-FILE'.split('').map((c) => c.charCodeAt(0).toString(16)).join(''), 'hex');
    const secretFile = writeFile(secretDir, 'secret.png', secret);
    const blip = '<a:blip r:link="rIdLinked"/>';
    const drawing = `<w:r><w:drawing><wp:inline><wp:extent cx="100" cy="100"/><wp:docPr id="1" name="p"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill>${blip}</pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const docx = await JSZip.loadAsync(await makeWordPackage({ body: para(run('A linked picture follows.')) + `<w:p>${drawing}</w:p>` }));
    const rels = await docx.file('word/_rels/document.xml.rels')!.async('string');
    docx.file(
      'word/_rels/document.xml.rels',
      rels.replace(
        '</Relationships>',
        `<Relationship Id="rIdLinked" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file://${secretFile}" TargetMode="External"/></Relationships>`,
      ),
    );
    const services = openTestServices();
    try {
      const file = writeFile(path.join(services.dir, 'docs'), 'linked.docx', await docx.generateAsync({ type: 'uint8array' }));
      const result = await services.ingest.ingest({ paths: [file] });
      const ingested = result.files[0]!;
      if (!ingested.ok) throw new Error(`The linked-picture DOCX was refused: ${JSON.stringify(ingested)}`);
      const id = ingested.sourceId;
      const dispatched = await services.dispatch('sources.content', { id });
      const everything = JSON.stringify(dispatched);
      expect(everything).toContain('A linked picture follows.');
      expect(everything).not.toContain(secret.toString('base64'));
      expect(everything).not.toContain('SECRET-LINKED-FILE');
    } finally {
      services.close();
    }
    expect(read('electron/services/ingest/extractors/docx.ts')).toMatch(/externalFileAccess: false/);
    expect(read('renderer/src/features/viewer/docx-dom.ts')).toMatch(/DOMPurify\.sanitize\(/);
  });
});
