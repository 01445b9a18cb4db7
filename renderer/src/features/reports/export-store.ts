import { create } from 'zustand';
import type { ErrorCode } from '../../../../shared/contract/errors.ts';
import type { ExportProgress } from '../../../../shared/contract/events.ts';
import type { ExportFormat, ExportResult } from '../../../../shared/contract/export-schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import type { BibStyleName } from './selectors.ts';

export interface ExportChoices {
  format: ExportFormat;
  style: BibStyleName;
  onlyAccepted: boolean;
  notes: boolean;
  excerpts: boolean;
  reviewer: string;
}

/** The report's first screen as HTML, for the dialog's sandboxed preview. */
export interface ExportPreview {
  html: string | null;
  loading: boolean;
  error: ExportError | null;
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
  /** The member's login on a shared workspace (the name a report starts from; none is remembered there). */
  sharedLogin: string | null;
  /** The running export's latest progress event (null before the first and when none runs). */
  progress: ExportProgress | null;
  /** The running export's name, to cancel it by. */
  jobId: string | null;
  /** The analyst cancelled the running export: nothing was written. */
  stopped: boolean;
  preview: ExportPreview;
  /** Renders the preview again for the current choices. */
  loadPreview(): Promise<void>;
  /** Stops the running export. */
  stop(): Promise<void>;
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

const INITIAL: ExportChoices = { format: 'html', style: 'bibtex', onlyAccepted: false, notes: true, excerpts: true, reviewer: '' };
const NO_PREVIEW: ExportPreview = { html: null, loading: false, error: null };

function newJobId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `export-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** The preview follows the choices, a moment after the last change (typing a name is many changes). */
let previewTimer: ReturnType<typeof setTimeout> | undefined;
let previewSeq = 0;

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
  sharedLogin: null,
  progress: null,
  jobId: null,
  stopped: false,
  preview: NO_PREVIEW,
  open: async (answerId, answerTitle) => {
    set({ answerId, answerTitle, busy: null, error: null, result: null, cancelled: false, stopped: false, progress: null, preview: { ...NO_PREVIEW, loading: true } });
    client
      .call('workspace.info', {})
      .then((info) => set({ needsPath: info.mode === 'browser', sharedLogin: info.shared?.login ?? null }))
      .catch(() => set({ needsPath: true }));
    try {
      const { reviewer } = await client.call('answers.exportDefaults', {});
      if (get().answerId === answerId) set((s) => ({ choices: { ...s.choices, reviewer: reviewer ?? '' } }));
    } catch {
      // Without the remembered name the field starts empty; the export still works.
    }
    if (get().answerId === answerId) void get().loadPreview();
  },
  close: () => {
    const { jobId, busy } = get();
    // Closing the dialog while it writes stops the export: nothing is left half-done behind it.
    if (busy === 'export' && jobId !== null) void client.call('answers.cancelExport', { jobId }).catch(() => undefined);
    clearTimeout(previewTimer);
    previewSeq++;
    set({ answerId: null, busy: null, error: null, result: null, cancelled: false, stopped: false, progress: null, jobId: null, preview: NO_PREVIEW });
  },
  choose: (patch) => {
    set((s) => ({ choices: { ...s.choices, ...patch }, result: null, error: null, cancelled: false, stopped: false }));
    // The format and style do not change the first page; the other choices do.
    if (Object.keys(patch).some((k) => k !== 'format' && k !== 'style')) {
      clearTimeout(previewTimer);
      previewTimer = setTimeout(() => void get().loadPreview(), 400);
    }
  },
  loadPreview: async () => {
    const { answerId, choices } = get();
    if (answerId === null) return;
    const seq = ++previewSeq;
    set((s) => ({ preview: { ...s.preview, loading: true, error: null } }));
    try {
      const { html } = await client.call('answers.exportPreview', { id: answerId, onlyAccepted: choices.onlyAccepted, notes: choices.notes, excerpts: choices.excerpts, reviewer: choices.reviewer });
      if (seq === previewSeq) set({ preview: { html, loading: false, error: null } });
    } catch (e) {
      if (seq === previewSeq) set((s) => ({ preview: { html: s.preview.html, loading: false, error: describe(e) } }));
    }
  },
  stop: async () => {
    const { jobId, busy } = get();
    if (busy !== 'export' || jobId === null) return;
    try {
      await client.call('answers.cancelExport', { jobId });
    } catch {
      // The export ended meanwhile: its own reply says how.
    }
  },
  run: async (typedPath) => {
    const { answerId, choices, busy } = get();
    if (answerId === null || busy !== null) return;
    const jobId = newJobId();
    set({ busy: 'export', error: null, result: null, cancelled: false, stopped: false, progress: null, jobId });
    const unsubscribe = client.onEvent((event) => {
      if (event.type === 'export.progress' && event.jobId === jobId && get().jobId === jobId) set({ progress: event });
    });
    const input = {
      jobId,
      id: answerId,
      format: choices.format,
      ...(choices.format === 'bib' ? { style: choices.style } : {}),
      onlyAccepted: choices.onlyAccepted,
      notes: choices.notes,
      excerpts: choices.excerpts,
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
      if (error.code === 'EXPORT_CANCELLED') {
        set({ busy: null, stopped: true });
        return;
      }
      // No save dialog after all (browser mode, or one that failed): ask for the path instead.
      if (error.code === 'DIALOG_UNAVAILABLE' && typedPath === undefined) set({ busy: null, needsPath: true, error });
      else set({ busy: null, error });
    } finally {
      unsubscribe();
      if (get().jobId === jobId) set({ jobId: null, progress: null });
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
