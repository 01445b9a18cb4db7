import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { fail } from '../../shared/contract/envelope.ts';
import { IPC_INVOKE_CHANNEL } from '../../shared/contract/ipc.ts';
import type { Services } from '../services/create-services.ts';
import { RENDERER_ORIGIN } from './protocol.ts';

/** Only our own top frame, loaded from app://renderer, may call the services. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  try {
    return new URL(frame.url).origin === RENDERER_ORIGIN || frame.url.startsWith(`${RENDERER_ORIGIN}/`);
  } catch {
    return false;
  }
}

/** One channel; every call goes through the shared dispatcher, which parses its input. */
export function registerIpc(services: Services): void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, (event, name: unknown, input: unknown) => {
    if (!isTrustedSender(event)) {
      return fail({ code: 'FORBIDDEN', message: 'This window is not allowed to call Evidence Desk services.' });
    }
    return services.dispatch(name, input);
  });
}
