import { app, type BrowserWindow } from 'electron';
import path from 'node:path';
import { IPC_EVENT_CHANNEL } from '../../shared/contract/ipc.ts';
import { formatCitationLink, LINK_SCHEME, parseCitationLink } from '../../shared/links/citation-link.ts';

/** The citation link among a launch's arguments (a second instance's argv, or this one's). */
export function linkInArgv(argv: readonly string[]): string | null {
  return argv.find((a) => a.toLowerCase().startsWith(`${LINK_SCHEME}:`)) ?? null;
}

/** The link in its canonical form, or null when the parser refuses it (a path, a script, markup, …). */
export function acceptLink(raw: string): string | null {
  const parsed = parseCitationLink(raw);
  if (parsed.ok) return formatCitationLink(parsed.link);
  process.stderr.write(`Evidence Desk refused a link: ${parsed.problem.reason}.\n`);
  return null;
}

export interface DeepLinks {
  /** The window has loaded: links that came before it are delivered now. */
  flush(): void;
}

/**
 * The evidesk:// protocol (issue 17): registered at run time (the installer registers it too,
 * electron-builder.yml `protocols`), one instance only, so a link clicked while the app runs reaches
 * the open window (`second-instance` on Windows and Linux, `open-url` on macOS), validated by the one
 * parser before it is sent. Null when another instance holds the lock: this one hands over and quits.
 */
export function registerDeepLinks(getWindow: () => BrowserWindow | null): DeepLinks | null {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  // Run from a development checkout (electron .), the protocol must start the same script.
  const script = process.argv[1];
  if (process.defaultApp && script) app.setAsDefaultProtocolClient(LINK_SCHEME, process.execPath, [path.resolve(script)]);
  else app.setAsDefaultProtocolClient(LINK_SCHEME);

  const pending: string[] = [];
  const send = (link: string) => {
    const win = getWindow();
    if (!win || win.webContents.isLoading()) {
      pending.push(link);
      return;
    }
    win.webContents.send(IPC_EVENT_CHANNEL, { type: 'link.open', link });
  };
  const bringForward = () => {
    const win = getWindow();
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  };
  const deliver = (raw: string) => {
    const link = acceptLink(raw);
    if (link) send(link);
    bringForward();
  };
  app.on('second-instance', (_event, argv) => {
    const raw = linkInArgv(argv as string[]);
    if (raw) deliver(raw);
    else bringForward();
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deliver(url);
  });
  // Started by a link: it waits for the window.
  const first = linkInArgv(process.argv);
  if (first) {
    const link = acceptLink(first);
    if (link) pending.push(link);
  }
  return {
    flush: () => {
      for (const link of pending.splice(0)) send(link);
    },
  };
}
