import { app, BrowserWindow, dialog, session } from 'electron';
import path from 'node:path';
import { IPC_EVENT_CHANNEL } from '../../shared/contract/ipc.ts';
import { createServices } from '../services/create-services.ts';
import { databaseFromArgv, openSharedDesk, type DeskServices } from '../services/shared-desk.ts';
import { nodeApiProblem } from '../services/store/node-api.ts';
import { resolveWorkspaceDir } from '../services/workspace/location.ts';
import { registerDeepLinks, type DeepLinks } from './deep-links.ts';
import { electronPlatform } from './electron-platform.ts';
import { guardEveryWebContents } from './guards.ts';
import { registerIpc, trackOwnWindow } from './ipc.ts';
import { denyAllPermissions } from './permissions.ts';
import { registerAppProtocol, registerSchemePrivileges, RENDERER_ORIGIN } from './protocol.ts';

/** The only webPreferences a window of ours gets (DESIGN.md §8, ../shared/SECURITY-CHECKLIST.md). */
export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const;

const here = import.meta.dirname;
const rendererDir = path.resolve(here, '..', 'renderer');
let mainWindow: BrowserWindow | null = null;
let deepLinks: DeepLinks | null = null;

function createWindow(services: Pick<DeskServices, 'events'>): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Evidence Desk',
    show: false,
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: path.join(here, 'preload.cjs') },
  });
  trackOwnWindow(win);
  const wc = win.webContents;
  const unsubscribe = services.events.subscribe((event) => {
    if (!wc.isDestroyed()) wc.send(IPC_EVENT_CHANNEL, event);
  });
  win.on('closed', () => {
    unsubscribe();
    mainWindow = null;
  });
  win.once('ready-to-show', () => win.show());
  wc.on('did-finish-load', () => deepLinks?.flush());
  void win.loadURL(`${RENDERER_ORIGIN}/index.html`);
  return win;
}

export function bootstrap(): void {
  // Before 'ready', all of it: sandbox every renderer, app:// privileges, guards on every webContents.
  app.enableSandbox();
  // This process ingests, but the command line's small young generation (INGESTING_PROCESS_FLAGS) is
  // not asked for here: V8 reads it only at launch, and --js-flags appended now would reach the
  // renderers, not this process. Passing it at launch is left for a machine that runs Electron.
  // One instance: a link opened while the app runs goes to its window (issue 17).
  deepLinks = registerDeepLinks(() => mainWindow);
  if (!deepLinks) return;
  registerSchemePrivileges();
  guardEveryWebContents();
  app.on('session-created', denyAllPermissions);
  void app.whenReady().then(() => {
    denyAllPermissions(session.defaultSession);
    const problem = nodeApiProblem(process.versions);
    if (problem) {
      dialog.showErrorBox('Evidence Desk cannot start', problem);
      app.quit();
      return;
    }
    let database;
    try {
      database = databaseFromArgv(process.argv);
    } catch (e) {
      dialog.showErrorBox('Evidence Desk cannot start', (e as Error).message);
      app.quit();
      return;
    }
    if (database) {
      void openShared(database.url);
      return;
    }
    const services = createServices(electronPlatform(() => mainWindow), resolveWorkspaceDir(process.argv));
    // Source health at open (DESIGN.md §7), in the background: the window opens at once.
    services.health.checkAll().catch((e: unknown) => process.stderr.write(`Source health check failed: ${(e as Error).message}\n`));
    // Then files moved or changed while the app is open are marked as it happens.
    void services.watcher.start();
    openWindows(services);
    app.on('will-quit', () => services.close());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

/** The protocol, the IPC channel and the window over the local services or a shared desk. */
function openWindows(services: DeskServices): void {
  services.citations.feed.start();
  registerAppProtocol(services, rendererDir);
  registerIpc(services);
  mainWindow = createWindow(services);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(services);
  });
}

/** The app on a shared workspace (issue 13): the member the URL names; a refusal is said in a dialog. */
async function openShared(url: string): Promise<void> {
  try {
    const platform = electronPlatform(() => mainWindow);
    const desk = await openSharedDesk(url, resolveWorkspaceDir(process.argv), 'electron', {
      log: (line) => void process.stderr.write(`${line}\n`),
      platform,
      ...(platform.launchExtractor ? { launch: platform.launchExtractor } : {}),
    });
    desk.checkHealth().catch((e: unknown) => process.stderr.write(`Source health check failed: ${(e as Error).message}\n`));
    openWindows(desk);
    app.on('will-quit', () => void desk.close());
  } catch (e) {
    dialog.showErrorBox('Evidence Desk cannot open the shared workspace', (e as Error).message);
    app.quit();
  }
}

bootstrap();
