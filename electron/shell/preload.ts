import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/contract/ipc.ts';

// The renderer gets three functions, never ipcRenderer itself (DESIGN.md §8): the channels are
// fixed here, and an event listener sees the event's data, never Electron's event object.
contextBridge.exposeInMainWorld('evidence', {
  invoke: (name: string, input: unknown) => ipcRenderer.invoke(IPC_INVOKE_CHANNEL, String(name), input),
  onEvent: (listener: (event: unknown) => void) => {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a function.');
    const wrapped = (_e: unknown, event: unknown) => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, wrapped);
    };
  },
  getPathForFile: (file: File) => webUtils.getPathForFile(file),
});
