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
import { RENDERER_DIR } from './build.ts';
import type { TestPostgres } from './postgres.ts';
import { tempDir } from './workspace.ts';

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
  member: { name: string; level: 'admin' | 'reviewer' | 'auditor'; project: string; mode: 'cli' | 'browser' },
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
