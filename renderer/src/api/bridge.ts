import type { Envelope } from '../../../shared/contract/envelope.ts';

/** What electron/shell/preload.ts exposes as window.evidence (contextBridge; never ipcRenderer). */
export interface EvidenceBridge {
  invoke(name: string, input: unknown): Promise<Envelope<unknown>>;
  onEvent(listener: (event: unknown) => void): () => void;
  getPathForFile(file: File): string;
}

declare global {
  interface Window {
    evidence?: EvidenceBridge;
  }
}
