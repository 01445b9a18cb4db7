import { create } from 'zustand';
import type { PreviousImport } from '../../../../shared/contract/library-schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import { useAnswers } from '../answers/answers-store.ts';
import { useLibrary } from '../library/library-store.ts';

/** An answer file imported before: the analyst chooses to re-verify that answer or import it again. */
export interface ReimportOffer {
  fileName: string;
  content: string;
  previous: PreviousImport;
}

/** What was just removed, so it can be brought back at once. */
export interface Removed {
  subject: 'answer' | 'source';
  id: number;
  name: string;
}

interface HousekeepingState {
  offers: ReimportOffer[];
  removed: Removed | null;
  error: string | null;
  /** Asks whether this exact file was imported before; if so, keeps an offer and returns true (do not import). */
  offerIfImported(fileName: string, content: string): Promise<boolean>;
  reverify(offer: ReimportOffer): Promise<void>;
  importAgain(offer: ReimportOffer): Promise<void>;
  dismiss(offer: ReimportOffer): void;
  rename(answerId: number, name: string): Promise<boolean>;
  remove(subject: 'answer' | 'source', id: number, name: string): Promise<void>;
  undoRemove(): Promise<void>;
  clearRemoved(): void;
}

function message(e: unknown): string {
  return e instanceof ClientError ? e.message : String(e);
}

async function refreshLists(subject: 'answer' | 'source'): Promise<void> {
  if (subject === 'answer') await useAnswers.getState().refresh();
  else {
    await useLibrary.getState().refresh();
    // Cards of the open answer say when their source was removed.
    const open = useAnswers.getState().detail;
    if (open) await useAnswers.getState().reopen();
  }
}

export const useHousekeeping = create<HousekeepingState>((set, get) => ({
  offers: [],
  removed: null,
  error: null,

  offerIfImported: async (fileName, content) => {
    const { previous } = await client.call('answers.findImported', { content });
    if (!previous) return false;
    set({ offers: [...get().offers.filter((o) => o.previous.id !== previous.id), { fileName, content, previous }] });
    return true;
  },

  reverify: async (offer) => {
    get().dismiss(offer);
    set({ error: null });
    try {
      const detail = await client.call('answers.verify', { id: offer.previous.id });
      if (useAnswers.getState().detail?.answer.id !== detail.answer.id) useAnswers.setState({ detail: null });
      useAnswers.setState({ selectedId: detail.answer.id, currentId: detail.citations[0]?.id ?? null, expanded: {}, draft: null, detailError: null, filter: 'all', flagFilter: null });
      await Promise.all([useAnswers.getState().reopen(), useAnswers.getState().refresh()]);
    } catch (e) {
      set({ error: `Could not re-verify ${offer.previous.name}: ${message(e)}` });
    }
  },

  importAgain: async (offer) => {
    get().dismiss(offer);
    set({ error: null });
    try {
      const imported = await client.call('answers.importSummary', { fileName: offer.fileName, content: offer.content });
      await useAnswers.getState().refresh();
      if (useAnswers.getState().detail?.answer.id !== imported.answer.id) useAnswers.setState({ detail: null });
      useAnswers.setState({ selectedId: imported.answer.id, currentId: null, expanded: {}, draft: null, detailError: null, filter: 'all', flagFilter: null });
      await useAnswers.getState().reopen();
    } catch (e) {
      set({ error: `Could not import ${offer.fileName}: ${message(e)}` });
    }
  },

  dismiss: (offer) => set({ offers: get().offers.filter((o) => o !== offer) }),

  rename: async (answerId, name) => {
    set({ error: null });
    try {
      await client.call('answers.rename', { id: answerId, name });
      await useAnswers.getState().refresh();
      const open = useAnswers.getState().detail;
      if (open?.answer.id === answerId) useAnswers.setState({ detail: { ...open, answer: { ...open.answer, name: name.trim() } } });
      return true;
    } catch (e) {
      set({ error: `Could not rename the answer: ${message(e)}` });
      return false;
    }
  },

  remove: async (subject, id, name) => {
    set({ error: null });
    try {
      await client.call(subject === 'answer' ? 'answers.remove' : 'sources.remove', { id });
      set({ removed: { subject, id, name } });
      await refreshLists(subject);
    } catch (e) {
      set({ error: `Could not remove ${name}: ${message(e)}` });
    }
  },

  undoRemove: async () => {
    const r = get().removed;
    if (!r) return;
    set({ removed: null, error: null });
    try {
      await client.call(r.subject === 'answer' ? 'answers.restore' : 'sources.restore', { id: r.id });
      await refreshLists(r.subject);
    } catch (e) {
      set({ error: `Could not bring back ${r.name}: ${message(e)}` });
    }
  },

  clearRemoved: () => set({ removed: null }),
}));
