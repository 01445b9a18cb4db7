/**
 * A migrated shared workspace with a small team (issue 13): projects alpha and beta; an agent in
 * each, a reviewer in alpha, an auditor and an admin; each member connected as its own login role.
 * Also a document to ingest, streamed in pieces as a file would be.
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { migratePostgres } from '../../electron/services/store/postgres/migrate.ts';
import { PgStore, type PgNewSource } from '../../electron/services/store/postgres/pg-store.ts';
import type { AccessLevel } from '../../electron/services/store/postgres/schema-access.ts';
import { ensureProject, grantMember } from '../../electron/services/store/postgres/team.ts';
import { afterAll, beforeAll } from 'vitest';
import { startTestPostgres, type TestDatabase, type TestPostgres } from './postgres.ts';

export interface PgTeam {
  owner: pg.Client;
  admin: PgStore;
  agentA: PgStore;
  agentB: PgStore;
  reviewerA: PgStore;
  auditor: PgStore;
  /** Another login of a level, connected (for concurrent writers of one level). */
  member(name: string, level: AccessLevel, projects: readonly string[]): Promise<PgStore>;
  /** Another login of a level, not connected: its URL (for a client in another process). */
  memberUrl(name: string, level: AccessLevel, projects: readonly string[]): Promise<string>;
  close(): Promise<void>;
}

export async function pgTeam(db: TestDatabase): Promise<PgTeam> {
  const owner = await db.owner();
  await migratePostgres(owner);
  await ensureProject(owner, 'alpha', 'Alpha engagement');
  await ensureProject(owner, 'beta', 'Beta engagement');
  const stores: PgStore[] = [];
  const memberUrl = async (name: string, level: AccessLevel, projects: readonly string[]): Promise<string> => {
    const login = `${db.loginPrefix}${name}`;
    const password = randomBytes(9).toString('base64url');
    await grantMember(owner, { login, password, level, projects });
    return db.urlFor(login, password);
  };
  const member = async (name: string, level: AccessLevel, projects: readonly string[]): Promise<PgStore> => {
    const store = await PgStore.connect(await memberUrl(name, level, projects));
    stores.push(store);
    return store;
  };
  return {
    owner,
    admin: await member('admin', 'admin', ['alpha', 'beta']),
    agentA: await member('agent_a', 'agent', ['alpha']),
    agentB: await member('agent_b', 'agent', ['beta']),
    reviewerA: await member('reviewer_a', 'reviewer', ['alpha']),
    auditor: await member('auditor', 'auditor', []),
    member,
    memberUrl,
    close: async () => {
      for (const s of stores) await s.close();
      await owner.end();
    },
  };
}

/** The source record of a text file's `bytes`, one segment a paragraph. */
export function pgTextSource(name: string, bytes: Buffer, paragraphs: readonly string[]): PgNewSource {
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    kind: 'text',
    fileName: `${name}.txt`,
    byteSize: bytes.byteLength,
    pageCount: null,
    title: name,
    extractionMethod: 'text',
    segments: paragraphs.map((p, i) => ({ text: p, locator: { kind: 'text', paragraph: i + 1 } })),
  };
}

/** A text document of `size` bytes (made of numbered sentences) and its source record. */
export function pgDocument(name: string, size = 4096): { src: PgNewSource; bytes: Buffer; pieces: (pieceSize?: number) => AsyncIterable<Uint8Array> } {
  let text = '';
  for (let i = 0; text.length < size; i++) text += `${name} sentence ${i} says the quarterly revenue grew by ${i % 97} percent. `;
  const bytes = Buffer.from(text.slice(0, size), 'utf8');
  const paragraphs = bytes.toString('utf8').split('. ').slice(0, 50);
  return {
    bytes,
    src: pgTextSource(name, bytes, paragraphs),
    pieces: (pieceSize = 64 * 1024) =>
      (async function* () {
        for (let at = 0; at < bytes.byteLength; at += pieceSize) yield bytes.subarray(at, at + pieceSize);
      })(),
  };
}

/**
 * A server and a team for one test file: started before its tests, stopped after them. Read
 * `server` and `team` inside tests and hooks (they are set once the file's first hook has run).
 */
export function withPgTeam(): { readonly server: TestPostgres; readonly team: PgTeam } {
  let server: TestPostgres | undefined;
  let team: PgTeam | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
    team = await pgTeam(server);
  });
  afterAll(async () => {
    await team?.close();
    await server?.close();
  });
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the PostgreSQL team is not started yet');
    return v;
  };
  return {
    get server() {
      return ready(server);
    },
    get team() {
      return ready(team);
    },
  };
}
