import { create } from 'zustand';
import type { ErrorCode } from '../../../../shared/contract/errors.ts';
import type { ExportFormat, ExportResult } from '../../../../shared/contract/export-schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import type { BibStyleName } from './selectors.ts';

export interface ExportChoices {
  format: ExportFormat;
  style: BibStyleName;
  onlyAccepted: boolean;
  notes: boolean;
  reviewer: string;
}

export interface ExportError {
  code: ErrorCode | 'UNKNOWN';
  message: string;
}

interface ExportState {
  /** The answer the dialog exports; null when closed. */
  answerId: number | null;
  answerTitle: string;
  choices: ExportChoices;
  /** 'export' while writing; 'reveal' while asking the platform to show the file. */
  busy: 'export' | 'reveal' | null;
  error: ExportError | null;
  result: ExportResult | null;
  /** The save dialog was closed without a choice. */
  cancelled: boolean;
  /** Browser mode has no save dialog: the analyst types where to save. */
  needsPath: boolean;
  open(answerId: number, answerTitle: string): Promise<void>;
  close(): void;
  choose(patch: Partial<ExportChoices>): void;
  /** Exports through the platform's save dialog, or to `typedPath` where there is none (browser mode). */
  run(typedPath?: string): Promise<void>;
  reveal(): Promise<void>;
}

function describe(e: unknown): ExportError {
  return e instanceof ClientError ? { code: e.code, message: e.message } : { code: 'UNKNOWN', message: String(e) };
}

const INITIAL: ExportChoices = { format: 'html', style: 'bibtex', onlyAccepted: false, notes: true, reviewer: '' };

export const useExport = create<ExportState>()((set, get) => ({
  answerId: null,
  answerTitle: '',
  // The format and options stay as last chosen while the page is open; the reviewer comes from the workspace.
  choices: INITIAL,
  busy: null,
  error: null,
  result: null,
  cancelled: false,
  needsPath: false,
  open: async (answerId, answerTitle) => {
    set({ answerId, answerTitle, busy: null, error: null, result: null, cancelled: false });
    client
      .call('workspace.info', {})
      .then((info) => set({ needsPath: info.mode === 'browser' }))
      .catch(() => set({ needsPath: true }));
    try {
      const { reviewer } = await client.call('answers.exportDefaults', {});
      if (get().answerId === answerId) set((s) => ({ choices: { ...s.choices, reviewer: reviewer ?? '' } }));
    } catch {
      // Without the remembered name the field starts empty; the export still works.
    }
  },
  close: () => set({ answerId: null, busy: null, error: null, result: null, cancelled: false }),
  choose: (patch) => set((s) => ({ choices: { ...s.choices, ...patch }, result: null, error: null, cancelled: false })),
  run: async (typedPath) => {
    const { answerId, choices, busy } = get();
    if (answerId === null || busy !== null) return;
    set({ busy: 'export', error: null, result: null, cancelled: false });
    const input = {
      id: answerId,
      format: choices.format,
      ...(choices.format === 'bib' ? { style: choices.style } : {}),
      onlyAccepted: choices.onlyAccepted,
      notes: choices.notes,
      reviewer: choices.reviewer,
    };
    try {
      if (typedPath !== undefined) {
        const result = await client.call('answers.export', { ...input, path: typedPath });
        if (get().answerId === answerId) set({ busy: null, result });
      } else {
        const reply = await client.call('answers.exportWithDialog', input);
        if (get().answerId === answerId) set({ busy: null, result: reply.result, cancelled: reply.cancelled });
      }
    } catch (e) {
      if (get().answerId !== answerId) return;
      const error = describe(e);
      // No save dialog after all (browser mode, or one that failed): ask for the path instead.
      if (error.code === 'DIALOG_UNAVAILABLE' && typedPath === undefined) set({ busy: null, needsPath: true, error });
      else set({ busy: null, error });
    }
  },
  reveal: async () => {
    const { result } = get();
    if (!result) return;
    set({ busy: 'reveal', error: null });
    try {
      await client.call('answers.revealExport', { path: result.path });
      set({ busy: null });
    } catch (e) {
      set({ busy: null, error: describe(e) });
    }
  },
}));
