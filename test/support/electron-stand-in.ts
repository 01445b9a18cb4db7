// A thin stand-in for the 'electron' module: it records what electron/shell registers so the
// wiring test can check our wiring (DESIGN.md §9). It imitates no Electron behaviour beyond that.
type Listener = (...args: unknown[]) => unknown;

export const recorded = {
  privilegedSchemes: [] as unknown[],
  protocolHandlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  ipcHandlers: new Map<string, Listener>(),
  windows: [] as FakeBrowserWindow[],
  appListeners: new Map<string, Listener[]>(),
  permissionRequestHandler: null as Listener | null,
  permissionCheckHandler: null as Listener | null,
  exposed: new Map<string, unknown>(),
  openedExternal: [] as string[],
};

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

class FakeWebContents extends Emitter {
  windowOpenHandler: Listener | null = null;
  loadedUrl: string | null = null;
  sent: unknown[][] = [];
  setWindowOpenHandler(fn: Listener): void {
    this.windowOpenHandler = fn;
  }
  isDestroyed(): boolean {
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
    recorded.windows.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.webContents.loadedUrl = url;
    return Promise.resolve();
  }
  show(): void {}
  static getAllWindows(): FakeBrowserWindow[] {
    return recorded.windows;
  }
}

export const BrowserWindow = FakeBrowserWindow;

export const app = {
  whenReady: () => Promise.resolve(),
  on: (name: string, fn: Listener) => {
    recorded.appListeners.set(name, [...(recorded.appListeners.get(name) ?? []), fn]);
  },
  quit: () => undefined,
  getPath: () => '/nonexistent',
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown[]) => recorded.privilegedSchemes.push(...schemes),
  handle: (scheme: string, handler: (request: Request) => Promise<Response>) => recorded.protocolHandlers.set(scheme, handler),
};

export const ipcMain = {
  handle: (channel: string, fn: Listener) => recorded.ipcHandlers.set(channel, fn),
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (fn: Listener) => {
      recorded.permissionRequestHandler = fn;
    },
    setPermissionCheckHandler: (fn: Listener) => {
      recorded.permissionCheckHandler = fn;
    },
  },
};

export const shell = {
  openExternal: (url: string) => {
    recorded.openedExternal.push(url);
    return Promise.resolve();
  },
  showItemInFolder: () => undefined,
};

export const dialog = { showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }) };
export const contextBridge = { exposeInMainWorld: (key: string, api: unknown) => recorded.exposed.set(key, api) };
export const ipcRenderer = { invoke: () => Promise.resolve(), on: () => undefined, removeListener: () => undefined };
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
export const utilityProcess = {
  fork: (modulePath: string, args: string[] = [], options: Record<string, unknown> = {}) => {
    const child = new FakeUtilityProcess();
    utilityForks.push({ modulePath, args, options, child });
    return child;
  },
};
