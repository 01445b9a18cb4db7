import { dialog, shell, utilityProcess, type BrowserWindow } from 'electron';
import { childExecArgv, stderrTail, type ChildExit, type LaunchExtractor } from '../services/ingest/extractor-process.ts';
import type { Platform } from '../services/platform.ts';

/**
 * Extraction children in the app: Electron's utility processes (with the RunAsNode fuse off, the
 * app cannot fork itself as Node). A utility process that is killed or crashes cannot take the main
 * process with it.
 */
export const launchUtilityExtractor: LaunchExtractor = (options) => {
  const child = utilityProcess.fork(options.script, [], {
    serviceName: 'Evidence Desk extractor',
    execArgv: childExecArgv(options),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const tail = stderrTail();
  child.stderr?.on('data', (chunk: Buffer | string) => tail.push(chunk));
  // V8's fatal errors (the heap cap among them) arrive here before the exit; the location and the
  // diagnostic report's header say whether it was the heap.
  child.on('error', (_type, location, report) => {
    tail.push(`${location}\n${String(report).slice(0, 2048)}\n`);
  });
  // Messages wait until the process has started.
  let pending: unknown[] | null = [];
  child.once('spawn', () => {
    for (const m of pending ?? []) child.postMessage(m);
    pending = null;
  });
  const exitListeners: ((exit: ChildExit) => void)[] = [];
  let exited: ChildExit | null = null;
  child.once('exit', (code) => {
    const exit: ChildExit = { code, signal: null, outOfMemory: tail.outOfMemory() };
    exited = exit;
    pending = null;
    for (const listener of exitListeners.splice(0)) listener(exit);
  });
  return {
    send: (message) => {
      if (exited) return;
      if (pending) pending.push(message);
      else child.postMessage(message);
    },
    kill: () => {
      if (!exited) child.kill();
    },
    // The app's lifetime is Electron's to decide: an idle utility process does not hold it.
    hold: () => undefined,
    onMessage: (listener) => {
      child.on('message', listener);
    },
    onExit: (listener) => {
      if (exited) listener(exited);
      else exitListeners.push(listener);
    },
  };
};

export function electronPlatform(window: () => BrowserWindow | null): Platform {
  return {
    mode: 'electron',
    chooseFiles: async ({ title, folders }) => {
      const win = window();
      const options = {
        title,
        properties: folders ? (['openDirectory', 'multiSelections'] as const) : (['openFile', 'multiSelections'] as const),
      };
      const result = win ? await dialog.showOpenDialog(win, { ...options, properties: [...options.properties] }) : await dialog.showOpenDialog({ ...options, properties: [...options.properties] });
      return result.canceled ? [] : result.filePaths;
    },
    chooseSavePath: async ({ title, defaultName }) => {
      const win = window();
      const result = win ? await dialog.showSaveDialog(win, { title, defaultPath: defaultName }) : await dialog.showSaveDialog({ title, defaultPath: defaultName });
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    revealInFolder: async (filePath) => {
      shell.showItemInFolder(filePath);
    },
    launchExtractor: launchUtilityExtractor,
  };
}
