import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { fail, type Envelope } from '../../shared/contract/envelope.ts';
import { IPC_INVOKE_CHANNEL } from '../../shared/contract/ipc.ts';
import type { DeskServices } from '../services/shared-desk.ts';
import { isRendererUrl } from './url-policy.ts';

/** The webContents of the windows this app made (by id, known before the window is destroyed). */
const ownContents = new Set<number>();

export function trackOwnWindow(win: BrowserWindow): void {
  const id = win.webContents.id;
  ownContents.add(id);
  win.on('closed', () => ownContents.delete(id));
}

type Sender = Pick<IpcMainInvokeEvent, 'senderFrame'> & { sender: { id: number } };

/**
 * Checked synchronously before anything else: the main frame (not a subframe) of one of our own
 * windows, showing our own UI from app://renderer.
 */
export function isTrustedSender(event: Sender): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (!ownContents.has(event.sender.id)) return false;
  return isRendererUrl(frame.url);
}

const ABSOLUTE_PATH = /(^|[\s'"`(=:])((?:[A-Za-z]:)?[\\/][^\s'"`)]*[\\/][^\s'"`)]*)/g;

/**
 * An unexpected error reaches the page without a stack and without paths of this machine (a
 * coded error's message is written for the analyst and kept as it is).
 */
export function withoutInternals(envelope: Envelope<unknown>): Envelope<unknown> {
  if (envelope.ok || envelope.error.code !== 'INTERNAL') return envelope;
  const firstLine = envelope.error.message.split('\n')[0] ?? '';
  return fail({ code: 'INTERNAL', message: firstLine.replace(/file:\/\/\S*/g, '<path>').replace(ABSOLUTE_PATH, '$1<path>') });
}

/** The one way to listen on IPC: sender check first, errors as envelopes without internals. */
export function handle(channel: string, fn: (...args: unknown[]) => Promise<Envelope<unknown>> | Envelope<unknown>): void {
  ipcMain.handle(channel, async (event, ...args: unknown[]) => {
    if (!isTrustedSender(event)) {
      return fail({ code: 'FORBIDDEN', message: 'This window is not allowed to call Evidence Desk services.' });
    }
    try {
      return withoutInternals(await fn(...args));
    } catch (e) {
      return withoutInternals(fail({ code: 'INTERNAL', message: `Unexpected error: ${e instanceof Error ? e.message : String(e)}` }));
    }
  });
}

/** One channel; every call goes through the shared dispatcher, which parses its input. */
export function registerIpc(services: Pick<DeskServices, 'dispatch'>): void {
  handle(IPC_INVOKE_CHANNEL, (name, input) => services.dispatch(name, input));
}
