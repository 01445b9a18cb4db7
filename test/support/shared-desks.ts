/**
 * Desks of members of a shared workspace on a test PostgreSQL (issue 13): a member granted in a
 * project and its desk opened, a handler called on it, and the same desk served to a Chromium page.
 */
import type pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { startHost, type Host } from '../../electron/host/server.ts';
import { openSharedDesk, type SharedDesk } from '../../electron/services/shared-desk.ts';
import { grantMember } from '../../electron/services/store/postgres/team.ts';
import type { HandlerName, HandlerOutput } from '../../shared/contract/contract.ts';
import type { AppEvent } from '../../shared/contract/events.ts';
import fs from 'node:fs';
import { migrateWorkspace } from '../../electron/services/store/postgres/pg-workspace-migrate.ts';
import { SCREENSHOTS } from './app-in-chromium.ts';
import { ensureBuilt, RENDERER_DIR } from './build.ts';
import { launchChromium } from './chromium.ts';
import { startTestPostgres, type TestPostgres } from './postgres.ts';
import { openTestServices, tempDir, type TestServices } from './workspace.ts';

type MemberLevel = 'admin' | 'reviewer' | 'auditor';

/** A handler's reply on a desk; a refusal throws naming the handler, code and sentence. */
export async function deskCall<N extends HandlerName>(desk: SharedDesk, name: N, input: unknown): Promise<HandlerOutput<N>> {
  const reply = await desk.dispatch(name, input);
  if (!reply.ok) throw new Error(`${name}: ${reply.error.code} ${reply.error.message}`);
  return reply.value as HandlerOutput<N>;
}

/** Grants `name` (prefixed by the server's test prefix) the level in the project and opens its desk. */
export async function openMemberDesk(
  server: TestPostgres,
  owner: pg.Client,
  member: { name: string; level: MemberLevel; project: string; mode: 'cli' | 'browser' },
): Promise<SharedDesk> {
  const login = `${server.loginPrefix}${member.name}`;
  // An auditor reads every project and belongs to none.
  await grantMember(owner, { login, password: `pw-${member.name}`, level: member.level, projects: member.level === 'auditor' ? [] : [member.project] });
  return openSharedDesk(server.urlFor(login, `pw-${member.name}`), tempDir(`evidesk-desk-${member.name}-`), member.mode);
}

/** The desk served by a host and opened in a new page of `browser`, at its Sources tab. */
export async function openDeskPage(browser: Browser, desk: SharedDesk, hosts: Host[]): Promise<Page> {
  const host = await startHost({ services: desk, staticDir: RENDERER_DIR });
  hosts.push(host);
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  await page.goto(host.url);
  await page.getByTestId('shared-workspace').waitFor();
  await page.getByRole('tab', { name: /Sources/ }).click();
  return page;
}

/** What a shared-desk test opened, closed in order: the browser, hosts, desks, the owner's connection, the server. */
export async function closeShared(opened: { browser?: Browser; hosts?: readonly Host[]; desks?: readonly (SharedDesk | undefined)[]; owner?: pg.Client; server?: TestPostgres }): Promise<void> {
  await opened.browser?.close();
  for (const host of opened.hosts ?? []) await host.close();
  for (const desk of opened.desks ?? []) await desk?.close();
  await opened.owner?.end();
  await opened.server?.close();
}

/** Starts a desk's change feed, collecting what it hears into `heard`; resolves once it is connected. */
export function followLive(desk: SharedDesk, heard: AppEvent[]): Promise<void> {
  const connected = new Promise<void>((resolve) =>
    desk.events.subscribe((e) => {
      heard.push(e);
      if (e.type === 'shared.connection' && e.state === 'connected') resolve();
    }),
  );
  desk.citations.feed.start();
  return connected;
}

/** A shared workspace moved from a local one, and Chromium to open its members' desks in. */
export interface SharedPages<T> {
  server: TestPostgres;
  owner: pg.Client;
  browser: Browser;
  /** What `fill` handed back of the local workspace (source ids, …). */
  filled: T;
  /** Grants the member in the project and opens its desk in a new page, at the Sources tab. */
  openPage(name: string, level: MemberLevel): Promise<Page>;
  close(): Promise<void>;
}

/**
 * The e2e tests' shared workspace: the renderer built, a test PostgreSQL, a local workspace that
 * `fill` ingests into (and answers), moved into the database as `project`, and a Chromium.
 */
export async function openSharedPages<T>(project: { key: string; name: string }, fill: (local: TestServices) => Promise<T>): Promise<SharedPages<T>> {
  ensureBuilt();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const server = await startTestPostgres();
  const owner = await server.owner();
  const local = openTestServices();
  let filled: T;
  try {
    filled = await fill(local);
  } finally {
    local.close();
  }
  await migrateWorkspace(owner, { from: local.workspaceDir, project });
  const browser = await launchChromium();
  const desks: SharedDesk[] = [];
  const hosts: Host[] = [];
  return {
    server,
    owner,
    browser,
    filled,
    openPage: async (name, level) => {
      const desk = await openMemberDesk(server, owner, { name, level, project: project.key, mode: 'browser' });
      desks.push(desk);
      return openDeskPage(browser, desk, hosts);
    },
    close: () => closeShared({ browser, hosts, desks, owner, server }),
  };
}
