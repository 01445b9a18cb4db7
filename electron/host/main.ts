import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServices } from '../services/create-services.ts';
import { databaseFromArgv, openSharedDesk, sharedPlaceLine } from '../services/shared-desk.ts';
import { resolveWorkspaceDir } from '../services/workspace/location.ts';
import { browserPlatform } from './browser-platform.ts';
import { removeHostFile, writeHostFile } from './host-file.ts';
import { startHost } from './server.ts';

function option(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/**
 * Browser mode on a shared workspace (issue 13): the desk over the member's connection; the local
 * folder holds only what is this member's own (its snapshot cache). Teammates' writes arrive live.
 */
async function runSharedBrowserMode(url: string, argv: readonly string[], staticDir: string): Promise<void> {
  const workspaceDir = resolveWorkspaceDir(argv);
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  const desk = await openSharedDesk(url, workspaceDir, 'browser', { log, platform: browserPlatform });
  desk.checkHealth().catch((e: unknown) => log(`Source health check failed: ${(e as Error).message}`));
  const port = Number(option(argv, '--port') ?? process.env.EVIDESK_PORT ?? 0);
  const host = await startHost({ services: desk, staticDir, port });
  process.stdout.write(
    `Evidence Desk is serving browser mode.\n  ${sharedPlaceLine(desk.place)}\n  Open: ${host.url}\n(The token in that URL is this session's key; the page keeps it in a cookie. Ctrl+C stops.)\n`,
  );
  const stop = () => {
    void host.close().then(async () => {
      await desk.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Browser mode: the same services and renderer, served on 127.0.0.1 with a random token. */
export async function runBrowserMode(argv: readonly string[], staticDir: string): Promise<void> {
  const database = databaseFromArgv(argv);
  if (database) return runSharedBrowserMode(database.url, argv, staticDir);
  const workspaceDir = resolveWorkspaceDir(argv);
  const services = createServices(browserPlatform, workspaceDir);
  // Source health at open (DESIGN.md §7), in the background: the page shows 'unchecked' until it lands.
  services.health.checkAll().catch((e: unknown) => process.stderr.write(`Source health check failed: ${(e as Error).message}\n`));
  // Then files moved or changed while the app is open are marked as it happens.
  void services.watcher.start();
  const port = Number(option(argv, '--port') ?? process.env.EVIDESK_PORT ?? 0);
  const host = await startHost({ services, staticDir, port });
  // `evidesk open LINK` finds this session here.
  writeHostFile(workspaceDir, host);
  process.stdout.write(
    `Evidence Desk is serving browser mode.\n  Workspace: ${workspaceDir}\n  Open: ${host.url}\n(The token in that URL is this session's key; the page keeps it in a cookie. Ctrl+C stops.)\n`,
  );
  const stop = () => {
    removeHostFile(workspaceDir);
    void host.close().then(() => {
      services.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// Run directly (the built dist/host/main.mjs, or this file under Node 24).
const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  const staticDir = process.env.EVIDESK_RENDERER_DIR ?? path.resolve(path.dirname(self), '..', 'renderer');
  runBrowserMode(process.argv.slice(2), staticDir).catch((e: unknown) => {
    process.stderr.write(`Evidence Desk could not start: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
