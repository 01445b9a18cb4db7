import { app, BrowserWindow, session, shell } from 'electron';
import path from 'node:path';
import { IPC_EVENT_CHANNEL } from '../../shared/contract/ipc.ts';
import { createServices, type Services } from '../services/create-services.ts';
import { resolveWorkspaceDir } from '../services/workspace/location.ts';
import { electronPlatform } from './electron-platform.ts';
import { registerIpc } from './ipc.ts';
import { registerAppProtocol, registerSchemePrivileges, RENDERER_ORIGIN } from './protocol.ts';

/** The only webPreferences a window of ours gets (DESIGN.md §8). */
export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const;

const here = import.meta.dirname;
const rendererDir = path.resolve(here, '..', 'renderer');
let mainWindow: BrowserWindow | null = null;

function createWindow(services: Services): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Evidence Desk',
    show: false,
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: path.join(here, 'preload.cjs') },
  });
  const wc = win.webContents;
  // Nothing navigates away from the app, and nothing opens new windows; links go to the browser.
  wc.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${RENDERER_ORIGIN}/`)) event.preventDefault();
  });
  wc.on('will-redirect', (event, url) => {
    if (!url.startsWith(`${RENDERER_ORIGIN}/`)) event.preventDefault();
  });
  wc.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const unsubscribe = services.events.subscribe((event) => {
    if (!wc.isDestroyed()) wc.send(IPC_EVENT_CHANNEL, event);
  });
  win.on('closed', () => {
    unsubscribe();
    mainWindow = null;
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${RENDERER_ORIGIN}/index.html`);
  return win;
}

export function bootstrap(): void {
  registerSchemePrivileges();
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  void app.whenReady().then(() => {
    const services = createServices(electronPlatform(() => mainWindow), resolveWorkspaceDir(process.argv));
    // Source health at open (DESIGN.md §7), in the background: the window opens at once.
    services.health.checkAll().catch((e: unknown) => process.stderr.write(`Source health check failed: ${(e as Error).message}\n`));
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    registerAppProtocol(services, rendererDir);
    registerIpc(services);
    mainWindow = createWindow(services);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(services);
    });
    app.on('will-quit', () => services.close());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

bootstrap();
