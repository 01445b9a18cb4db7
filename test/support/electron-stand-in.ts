// A thin stand-in for the 'electron' module: it records what electron/shell registers so the
// wiring tests can check our wiring (DESIGN.md §9). It imitates no Electron behaviour beyond that,
// except the order of things: 'ready' comes after the main module's synchronous start-up, and a
// new BrowserWindow's webContents is announced through app 'web-contents-created', as in Electron.
import { fork } from 'node:child_process';

type Listener = (...args: unknown[]) => unknown;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(name: string, fn: Listener): this {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
    return this;
  }
  once(name: string, fn: Listener): this {
    return this.on(name, fn);
  }
  emit(name: string, ...args: unknown[]): void {
    for (const fn of this.listeners.get(name) ?? []) fn(...args);
  }
}

export class FakeSession {
  permissionRequestHandler: Listener | null = null;
  permissionCheckHandler: Listener | null = null;
  devicePermissionHandler: Listener | null = null;
  displayMediaRequestHandler: Listener | null = null;
  setPermissionRequestHandler(fn: Listener | null): void {
    this.permissionRequestHandler = fn;
  }
  setPermissionCheckHandler(fn: Listener | null): void {
    this.permissionCheckHandler = fn;
  }
  setDevicePermissionHandler(fn: Listener | null): void {
    this.devicePermissionHandler = fn;
  }
  setDisplayMediaRequestHandler(fn: Listener | null): void {
    this.displayMediaRequestHandler = fn;
  }
}

let nextContentsId = 1;

export class FakeWebContents extends Emitter {
  readonly id = nextContentsId++;
  readonly mainFrame = { url: '', parent: null };
  readonly session: FakeSession;
  windowOpenHandler: Listener | null = null;
  loadedUrl: string | null = null;
  sent: unknown[][] = [];
  constructor(ses: FakeSession = session.defaultSession) {
    super();
    this.session = ses;
  }
  setWindowOpenHandler(fn: Listener): void {
    this.windowOpenHandler = fn;
  }
  isDestroyed(): boolean {
    return false;
  }
  isLoading(): boolean {
    return false;
  }
  send(...args: unknown[]): void {
    this.sent.push(args);
  }
}

export class FakeBrowserWindow extends Emitter {
  readonly options: Record<string, unknown>;
  readonly webContents = new FakeWebContents();
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    recorded.order.push('new BrowserWindow');
    recorded.windows.push(this);
    emitApp('web-contents-created', { preventDefault: () => undefined }, this.webContents);
  }
  loadURL(url: string): Promise<void> {
    this.webContents.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    return Promise.resolve();
  }
  show(): void {}
  focused = 0;
  focus(): void {
    this.focused++;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  static getAllWindows(): FakeBrowserWindow[] {
    return recorded.windows;
  }
  static fromWebContents(contents: unknown): FakeBrowserWindow | null {
    return recorded.windows.find((w) => w.webContents === contents) ?? null;
  }
}

export const recorded = {
  /** What happened, in order: 'app.enableSandbox', 'protocol.registerSchemesAsPrivileged', 'ready', … */
  order: [] as string[],
  privilegedSchemes: [] as Array<{ scheme: string; privileges: Record<string, boolean> }>,
  protocolHandlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  ipcHandlers: new Map<string, Listener>(),
  /** ipcMain.on / once listeners: the shell must register none. */
  ipcListeners: [] as string[],
  windows: [] as FakeBrowserWindow[],
  appListeners: new Map<string, Listener[]>(),
  exposed: new Map<string, unknown>(),
  openedExternal: [] as string[],
  openedPaths: [] as string[],
  messageBoxes: [] as Array<{ parent: unknown; options: Record<string, unknown> }>,
  /** The button index the next message boxes answer with (0 = Cancel in ours). */
  messageBoxResponse: 0,
  errorBoxes: [] as string[][],
  rendererInvokes: [] as unknown[][],
  rendererListeners: new Map<string, Listener[]>(),
  /** app.setAsDefaultProtocolClient calls: [scheme, path?, args?]. */
  protocolClients: [] as unknown[][],
  singleInstanceLocks: 0,
  /** What requestSingleInstanceLock answers (false: another instance holds it). */
  singleInstanceLockResult: true,
  quits: 0,
};

export function emitApp(name: string, ...args: unknown[]): void {
  for (const fn of recorded.appListeners.get(name) ?? []) fn(...args);
}

export const BrowserWindow = FakeBrowserWindow;

export const app = {
  enableSandbox: () => {
    recorded.order.push('app.enableSandbox');
  },
  whenReady: () =>
    Promise.resolve().then(() => {
      recorded.order.push('ready');
    }),
  on: (name: string, fn: Listener) => {
    recorded.order.push(`app.on:${name}`);
    recorded.appListeners.set(name, [...(recorded.appListeners.get(name) ?? []), fn]);
  },
  quit: () => {
    recorded.quits++;
  },
  getPath: () => '/nonexistent',
  requestSingleInstanceLock: () => {
    recorded.order.push('app.requestSingleInstanceLock');
    recorded.singleInstanceLocks++;
    return recorded.singleInstanceLockResult;
  },
  setAsDefaultProtocolClient: (...args: unknown[]) => {
    recorded.protocolClients.push(args);
    return true;
  },
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>) => {
    recorded.order.push('protocol.registerSchemesAsPrivileged');
    recorded.privilegedSchemes.push(...schemes);
  },
  handle: (scheme: string, handler: (request: Request) => Promise<Response>) => recorded.protocolHandlers.set(scheme, handler),
};

export const ipcMain = {
  handle: (channel: string, fn: Listener) => recorded.ipcHandlers.set(channel, fn),
  on: (channel: string) => recorded.ipcListeners.push(channel),
  once: (channel: string) => recorded.ipcListeners.push(channel),
};

export const session = { defaultSession: new FakeSession() };

export const shell = {
  openExternal: (url: string) => {
    recorded.openedExternal.push(url);
    return Promise.resolve();
  },
  openPath: (p: string) => {
    recorded.openedPaths.push(p);
    return Promise.resolve('');
  },
  showItemInFolder: () => undefined,
};

export const dialog = {
  showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }),
  showMessageBox: (...args: unknown[]) => {
    const [parent, options] = args.length > 1 ? args : [null, args[0]];
    recorded.messageBoxes.push({ parent, options: options as Record<string, unknown> });
    return Promise.resolve({ response: recorded.messageBoxResponse, checkboxChecked: false });
  },
  showErrorBox: (title: string, content: string) => {
    recorded.errorBoxes.push([title, content]);
  },
};
export const contextBridge = { exposeInMainWorld: (key: string, api: unknown) => recorded.exposed.set(key, api) };
export const ipcRenderer = {
  invoke: (...args: unknown[]) => {
    recorded.rendererInvokes.push(args);
    return Promise.resolve();
  },
  on: (channel: string, fn: Listener) => {
    recorded.rendererListeners.set(channel, [...(recorded.rendererListeners.get(channel) ?? []), fn]);
  },
  removeListener: (channel: string, fn: Listener) => {
    recorded.rendererListeners.set(channel, (recorded.rendererListeners.get(channel) ?? []).filter((l) => l !== fn));
  },
};
export const webUtils = { getPathForFile: () => '' };

export default { app, BrowserWindow, protocol, ipcMain, session, shell, dialog, contextBridge, ipcRenderer, webUtils };

// utilityProcess, for the app's extraction children (electron-platform.ts): records each fork; the
// test plays the child's events (spawn, message, error, exit) itself.
export class FakeUtilityProcess extends Emitter {
  readonly posted: unknown[] = [];
  readonly stderr = new Emitter();
  killed = false;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  kill(): boolean {
    this.killed = true;
    return true;
  }
}
export const utilityForks: { modulePath: string; args: string[]; options: Record<string, unknown>; child: FakeUtilityProcess }[] = [];
/**
 * Tests that run the whole shell (an ingest through IPC) need children that really extract: with
 * `real` set, each fork is backed by a Node child running the same script, its events relayed as a
 * utility process gives them (spawn, message, exit with a code, stderr). Off by default, so wiring
 * tests can play the events themselves.
 */
export const utilityChildren = { real: false };
function backWithNodeChild(child: FakeUtilityProcess, modulePath: string, args: string[], options: Record<string, unknown>): void {
  const real = fork(modulePath, args, { execArgv: (options.execArgv as string[] | undefined) ?? [], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  real.on('error', () => undefined);
  real.on('spawn', () => child.emit('spawn'));
  real.on('message', (m) => child.emit('message', m));
  real.stderr?.on('data', (chunk: Buffer) => child.stderr.emit('data', chunk));
  real.on('exit', (code) => child.emit('exit', code ?? 1));
  child.postMessage = (message: unknown) => {
    if (real.connected) real.send(message as object, (e) => void e);
  };
  child.kill = () => real.kill('SIGKILL');
}
export const utilityProcess = {
  fork: (modulePath: string, args: string[] = [], options: Record<string, unknown> = {}) => {
    const child = new FakeUtilityProcess();
    utilityForks.push({ modulePath, args, options, child });
    if (utilityChildren.real) backWithNodeChild(child, modulePath, args, options);
    return child;
  },
};
