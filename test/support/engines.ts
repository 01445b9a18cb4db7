/**
 * One parametrised fixture for the suites that run on both engines (issue 13, Done-when 1):
 * `describeEngines(title, body)` declares the suite once for SQLite and once for PostgreSQL.
 *
 * `engine.open(prepare)` gives fresh services over a new local workspace that `prepare` fills
 * through today's services (ingest, answers, SQL). On SQLite that is the workspace under test. On
 * PostgreSQL the workspace is then moved into a fresh database of an embedded server (one per
 * file, test/support/postgres.ts) by `evidesk workspace migrate`'s own code, which checks the
 * move, and the services are reopened with the PostgreSQL engine for every area moved onto
 * EvidenceStore (search, health, sources, answers, reviews, cards, and the writes of imports and
 * runs): those handlers then read and write PostgreSQL only, as the member the test names. Areas
 * not yet moved (ingest, the verifier's reads of sources, exports) still use the local copy.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { ServicesOptions } from '../../electron/services/create-services.ts';
import type { EvidenceStore } from '../../electron/services/store/evidence-store.ts';
import { pgEvidenceStore } from '../../electron/services/store/postgres/pg-evidence-store.ts';
import { PgStore } from '../../electron/services/store/postgres/pg-store.ts';
import { migrateWorkspace } from '../../electron/services/store/postgres/pg-workspace-migrate.ts';
import type { AccessLevel } from '../../electron/services/store/postgres/schema-access.ts';
import { grantInProject } from '../../electron/services/store/postgres/team.ts';
import { startTestPostgres, type TestDatabase, type TestPostgres } from './postgres.ts';
import { openTestServices, reopenTestServices, type TestServices } from './workspace.ts';

export const ENGINES = ['sqlite', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];

/** The project a moved workspace's answers land in. */
export const ENGINE_PROJECT = 'local';

export interface EngineOpenOptions extends ServicesOptions {
  /**
   * On PostgreSQL, whom the store connects as: 'owner', the one who moved the workspace (its
   * paths are the owner's), or a member at that level in ENGINE_PROJECT. Default 'owner'.
   */
  as?: 'owner' | AccessLevel;
  /**
   * 'suite': kept open for the rest of the describe (closed after its last test), for tests that
   * only read; default 'test': closed after the test.
   */
  scope?: 'test' | 'suite';
}

export interface Opened<T> {
  services: TestServices;
  prepared: T;
  /** On PostgreSQL, the database the workspace was moved into (null on SQLite). */
  database: TestDatabase | null;
}

export interface EngineFixture {
  readonly name: EngineName;
  open<T>(prepare: (services: TestServices) => Promise<T>, options?: EngineOpenOptions): Promise<Opened<T>>;
  /** On PostgreSQL, a store of a member at `level` of the same database (closed with the test). */
  connectAs(database: TestDatabase, level: AccessLevel): Promise<EvidenceStore>;
}

/** Declares `body` once per engine; the PostgreSQL server is started once for the file's suites. */
export function describeEngines(title: string, body: (engine: EngineFixture) => void): void {
  describe.each(ENGINES)(`${title} (%s)`, (name) => {
    let server: TestPostgres | undefined;
    const toClose: (() => Promise<void> | void)[] = [];
    const toCloseLast: (() => Promise<void> | void)[] = [];
    if (name === 'postgres') {
      beforeAll(async () => {
        server = await startTestPostgres();
      }, 120_000);
    }
    afterEach(async () => {
      for (const close of toClose.splice(0).reverse()) await close();
    });
    afterAll(async () => {
      for (const close of toCloseLast.splice(0).reverse()) await close();
      await server?.close();
    });

    const connectAs = async (database: TestDatabase, level: AccessLevel, closing = toClose): Promise<EvidenceStore> => {
      const login = `${database.loginPrefix}${level}`;
      const password = randomBytes(9).toString('hex');
      const owner = await database.owner();
      try {
        await grantInProject(owner, { login, level, password, ...(level === 'agent' || level === 'reviewer' ? { project: ENGINE_PROJECT } : {}) });
      } finally {
        await owner.end();
      }
      const store = pgEvidenceStore(await PgStore.connect(database.urlFor(login, password)));
      closing.push(() => store.close());
      return store;
    };

    body({
      name,
      connectAs: (database, level) => connectAs(database, level),
      async open<T>(prepare: (services: TestServices) => Promise<T>, options: EngineOpenOptions = {}): Promise<Opened<T>> {
        const { as = 'owner', scope = 'test', ...servicesOptions } = options;
        const closing = scope === 'suite' ? toCloseLast : toClose;
        let services = openTestServices(servicesOptions);
        closing.push(() => services.close());
        const prepared = await prepare(services);
        if (name === 'sqlite') return { services, prepared, database: null };
        if (!server) throw new Error('the PostgreSQL server did not start');

        const database = await server.anotherDatabase();
        const owner = await database.owner();
        try {
          services.close();
          await migrateWorkspace(owner, { from: services.workspaceDir, project: { key: ENGINE_PROJECT, name: 'Local workspace' } });
        } finally {
          await owner.end();
        }
        const evidence = as === 'owner' ? pgEvidenceStore(await PgStore.connect(database.ownerUrl)) : await connectAs(database, as, closing);
        if (as === 'owner') closing.push(() => evidence.close());
        services = reopenTestServices(services, { ...servicesOptions, evidence });
        return { services, prepared, database };
      },
    });
  });
}
