import { create } from 'zustand';
import type { ResultRiskFlagCode } from '../../../../shared/verification/result-schema.ts';
import type { AnswerOpen, CardFilter as ListFilter } from '../../../../shared/contract/card-schemas.ts';
import type { AnswerImported, AnswerSummaryData, ReviewData, ReviewDecision } from '../../../../shared/contract/answer-schemas.ts';
import { MAX_ANSWER_CHARS } from '../../../../shared/contract/answer-limits.ts';
import type { ErrorCode } from '../../../../shared/contract/errors.ts';
import { client, ClientError } from '../../api/client.ts';
import { useLibrary } from '../library/library-store.ts';
import { useViewer } from '../viewer/viewer-store.ts';
import { closestPlan, openPlan, type OpenPlan } from './selectors.ts';
import { withTrailRow, type CardFilter } from './review-trail.ts';
import { useHousekeeping } from '../housekeeping/housekeeping-store.ts';
import { CARD_PAGE, useCards } from './cards-store.ts';
import { unpackMarks } from '../../../../shared/contract/packed-marks.ts';
import { countWords } from '../../../../shared/text/count-words.ts';

/** The outcome of an import or a question, shown until the next one. */
export interface Notice {
  tone: 'ok' | 'error';
  text: string;
  code?: ErrorCode;
}

/** The citation last opened in the viewer, and what the analyst was told about it. */
export interface Opened {
  citationId: number;
  sourceId: number | null;
  message: string;
  highlights: boolean;
}

/** The note form open on a card: the decision it will record. */
export interface Draft {
  citationId: number;
  decision: ReviewDecision;
}

interface AnswersState {
  answers: AnswerSummaryData[];
  listError: string | null;
  selectedId: number | null;
  /** The open answer: header, text, markers and counts (its cards are useCards' pages). */
  detail: AnswerOpen | null;
  detailError: string | null;
  busy: 'import' | 'ask' | 'verify' | null;
  notices: Notice[];
  /** The card the keyboard acts on. */
  currentId: number | null;
  expanded: Record<number, boolean>;
  draft: Draft | null;
  reviewError: { citationId: number; text: string } | null;
  /** The name recorded on each decision (remembered by the workspace). */
  reviewer: string | null;
  /** Which cards are shown (and stepped through with j/k). */
  filter: CardFilter;
  /** A risk flag whose citations alone are shown (a flag group clicked in the ledger), beside `filter`. */
  flagFilter: ResultRiskFlagCode | null;
  setFlagFilter(code: ResultRiskFlagCode | null): void;
  opened: Opened | null;
  refresh(): Promise<void>;
  select(id: number | null): Promise<void>;
  importFiles(files: readonly File[]): Promise<void>;
  /** A sentence for the notices line (e.g. where dropped files went). */
  addNotice(notice: Notice): void;
  ask(question: string): Promise<boolean>;
  verify(): Promise<void>;
  review(citationId: number, decision: ReviewDecision | 'cleared', note?: string): Promise<void>;
  /** Restores the decision in force before the last one (a new row in the trail). */
  undo(citationId: number): Promise<void>;
  loadReviewer(): Promise<void>;
  saveReviewer(name: string): Promise<void>;
  setFilter(filter: CardFilter): void;
  /** Opens a citation in the viewer: where its quote was found, else where it was claimed (and says so). */
  open(citationId: number): Promise<void>;
  /** Opens the passage closest to a quote that was not found, highlighted as such (never as a match). */
  openClosest(citationId: number): Promise<void>;
  setCurrent(citationId: number | null): void;
  /** The open answer's header, markers and counts, and its cards, fetched again. */
  reopen(): Promise<void>;
  toggleExpanded(citationId: number): void;
  setDraft(draft: Draft | null): void;
  clearNotices(): void;
  /** Agent sessions that got citations while the app was open: shown as live. */
  live: Record<number, boolean>;
  /** An agent cited into a session (an event, never a poll): the list and, if open, the answer follow. */
  citationsArrived(answerId: number): Promise<void>;
}

/** One reload at a time per answer; events during it ask for one more, not one each. */
const reloading = new Map<number, boolean>();

function describe(e: unknown): { text: string; code?: ErrorCode } {
  return e instanceof ClientError ? { text: e.message, code: e.code } : { text: String(e) };
}

/** The file's text, or why it cannot be sent: the renderer reads it, never sends its path. */
async function readAnswerFile(file: File): Promise<string> {
  // UTF-8 takes at least one byte per character: a larger file cannot fit the contract's limit.
  const tooLarge = `${file.name} is too large to import (an answer file may hold up to ${countWords(MAX_ANSWER_CHARS)} characters).`;
  if (file.size > MAX_ANSWER_CHARS * 4) throw new Error(tooLarge);
  const content = await file.text();
  if (content.length > MAX_ANSWER_CHARS) throw new Error(tooLarge);
  return content;
}

/** Asks the viewer for what a plan shows, and keeps what the analyst is told about it. */
function show(citationId: number, plan: OpenPlan, set: (s: Partial<AnswersState>) => void): void {
  const r = plan.request;
  const closest = r?.closest === true;
  if (r?.viewer === 'pdf') useViewer.getState().open(r.sourceId, 'pdf', r.page, r.highlight, closest);
  else if (r?.viewer === 'flow') {
    if (r.target) useViewer.getState().openAt(r.sourceId, r.kind, r.target, closest);
    else useViewer.getState().open(r.sourceId, r.kind);
  }
  set({ opened: { citationId, sourceId: r ? r.sourceId : null, message: plan.message, highlights: plan.highlights } });
}

function citationsText(n: number): string {
  return `${n} ${n === 1 ? 'citation' : 'citations'}`;
}

/** The list the cards show: a flag group clicked in the ledger, else the filter chosen. */
export function listFilter(s: Pick<AnswersState, 'filter' | 'flagFilter'>): ListFilter {
  return s.flagFilter !== null ? `flag:${s.flagFilter}` : s.filter;
}

/** An answer as answers.open brings it, and the call that hands its cards to the list (made beside setting `detail`, so the page draws once). */
interface Opening {
  detail: AnswerOpen;
  showCards(): void;
}

/**
 * Opens an answer in one call (answers.open): its header, markers and counts, and its card list
 * under `filter` with the first page. One answer for the first screen: the host reads once.
 * The open answer's own list (a decision recorded, citations arrived) keeps its other pages held.
 */
async function openAnswer(id: number, filter: ListFilter): Promise<Opening> {
  const cards = useCards.getState();
  // Open already: the list the cards hold (a filter just chosen is its own load's to fill).
  const again = cards.answerId === id;
  const listed = again ? cards.filter : filter;
  const fill = again ? null : cards.begin(id, filter);
  const { marks, list, first, ...head } = await client.call('answers.open', { id, filter: listed, pageSize: CARD_PAGE });
  const rows = first.rows.map((r) => r.citation);
  return {
    detail: { ...head, marks: unpackMarks(marks) },
    showCards: () => (fill ? fill(list, rows) : void useCards.getState().refill(id, listed, list, rows)),
  };
}

type Set = (partial: Partial<AnswersState>) => void;
type Get = () => AnswersState;

/** Sends one trail row; on success the card gets it and its decision in force, the list its progress. */
async function appendRow(set: Set, get: Get, citationId: number, send: () => Promise<ReviewData>, failed: string): Promise<void> {
  set({ reviewError: null });
  try {
    const row = await send();
    useCards.getState().patch(citationId, (c) => withTrailRow(c, row));
    const detail = get().detail;
    const decision = row.decision === 'cleared' ? null : row.decision;
    if (detail) set({ detail: { ...detail, marks: detail.marks.map((m) => (m.id === citationId ? { ...m, decision } : m)) } });
    // The counts and a filter's cards may change with the decision: SQL says how.
    void get().reopen();
    if (get().draft?.citationId === citationId) set({ draft: null });
    void get().refresh();
  } catch (e) {
    set({ reviewError: { citationId, text: `${failed}: ${describe(e).text}` } });
  }
}

export const useAnswers = create<AnswersState>((set, get) => ({
  answers: [],
  listError: null,
  selectedId: null,
  detail: null,
  detailError: null,
  busy: null,
  notices: [],
  currentId: null,
  expanded: {},
  draft: null,
  reviewError: null,
  reviewer: null,
  filter: 'all',
  flagFilter: null,
  setFlagFilter: (flagFilter) => {
    set({ filter: 'all', flagFilter });
    void useCards.getState().load(get().selectedId, listFilter(get()));
  },
  opened: null,

  refresh: async () => {
    try {
      set({ answers: await client.call('answers.list', {}), listError: null });
    } catch (e) {
      set({ listError: describe(e).text });
    }
  },

  select: async (id) => {
    set({ selectedId: id, detailError: null, draft: null, reviewError: null, expanded: {}, filter: 'all', flagFilter: null });
    if (id === null) {
      set({ detail: null, currentId: null });
      void useCards.getState().load(null, 'all');
      return;
    }
    if (get().detail?.answer.id === id) {
      void useCards.getState().load(id, 'all');
      return;
    }
    try {
      const { detail, showCards } = await openAnswer(id, 'all');
      if (get().selectedId === id) {
        showCards();
        set({ detail, currentId: detail.marks[0]?.id ?? null });
      }
    } catch (e) {
      if (get().selectedId === id) set({ detail: null, detailError: describe(e).text });
    }
  },

  addNotice: (notice) => set({ notices: [...get().notices, notice] }),

  importFiles: async (files) => {
    if (files.length === 0) return;
    set({ busy: 'import', notices: [] });
    const notices: Notice[] = [];
    // The import replies with a summary; the answer opens through answers.open, as a selection does.
    let last: AnswerImported | null = null;
    for (const file of files) {
      try {
        const content = await readAnswerFile(file);
        // The same file again: the analyst is offered a re-verification instead of a duplicate.
        if (await useHousekeeping.getState().offerIfImported(file.name, content)) continue;
        last = await client.call('answers.importSummary', { fileName: file.name, content });
        const s = last.run?.summary;
        notices.push({ tone: 'ok', text: `Imported ${file.name}: ${last.answer.format}, ${citationsText(last.citationCount)}${s ? `, coverage ${Math.round(s.coverage * 100)}%` : ''}.` });
      } catch (e) {
        const { text, code } = describe(e);
        notices.push({ tone: 'error', text: `Could not import ${file.name}: ${text}`, ...(code ? { code } : {}) });
      }
      set({ notices: [...notices] });
    }
    set({ busy: null });
    await get().refresh();
    if (last) {
      // A stale answer must not stay on screen while the imported one opens.
      if (get().detail?.answer.id !== last.answer.id) set({ detail: null });
      await get().select(last.answer.id);
    }
  },

  ask: async (question) => {
    set({ busy: 'ask', notices: [] });
    try {
      const asked = await client.call('answers.ask', { question });
      const { detail, showCards } = await openAnswer(asked.answer.id, 'all');
      showCards();
      set({
        detail,
        filter: 'all',
        flagFilter: null,
        selectedId: detail.answer.id,
        currentId: detail.marks[0]?.id ?? null,
        expanded: {},
        draft: null,
        detailError: null,
        notices: [{ tone: 'ok', text: `The offline answerer cited ${citationsText(asked.citations.length)}.` }],
      });
      await get().refresh();
      return true;
    } catch (e) {
      const { text, code } = describe(e);
      set({ notices: [{ tone: 'error', text: `The question could not be answered: ${text}`, ...(code ? { code } : {}) }] });
      return false;
    } finally {
      set({ busy: null });
    }
  },

  verify: async () => {
    const id = get().selectedId;
    if (id === null) return;
    set({ busy: 'verify', detailError: null });
    try {
      await client.call('answers.verify', { id });
      if (get().selectedId === id) await get().reopen();
      await get().refresh();
    } catch (e) {
      set({ detailError: `Re-verification failed: ${describe(e).text}` });
    } finally {
      set({ busy: null });
    }
  },

  review: async (citationId, decision, note) => {
    const trimmed = note?.trim();
    await appendRow(set, get, citationId, () => client.call('answers.review', trimmed ? { citationId, decision, note: trimmed } : { citationId, decision }), 'The decision was not saved');
  },

  undo: async (citationId) => {
    await appendRow(set, get, citationId, () => client.call('answers.undoReview', { citationId }), 'Nothing was undone');
  },

  loadReviewer: async () => {
    try {
      set({ reviewer: (await client.call('answers.reviewer', {})).name });
    } catch {
      // The name is a convenience: decisions are saved without one.
    }
  },

  saveReviewer: async (name) => {
    const trimmed = name.trim();
    if (trimmed === (get().reviewer ?? '')) return;
    set({ reviewer: (await client.call('answers.setReviewer', { name: trimmed === '' ? null : trimmed })).name });
  },

  setFilter: (filter) => {
    set({ filter, flagFilter: null });
    void useCards.getState().load(get().selectedId, filter);
  },

  open: async (citationId) => {
    set({ currentId: citationId });
    const c = await useCards.getState().cardOf(citationId);
    if (!c || get().currentId !== citationId) return;
    const sourceId = c.source?.id ?? null;
    let kind = useLibrary.getState().sources.find((s) => s.id === sourceId)?.kind ?? null;
    let labels: { page: number; label: string | null }[] = [];
    const placed = c.result?.place && ['verified', 'verified_elsewhere', 'partial'].includes(c.result.status);
    const claimsPage = c.claimedLocator.pageLabel !== undefined || c.claimedLocator.page !== undefined;
    if (sourceId !== null && (!kind || (!placed && claimsPage && kind === 'pdf'))) {
      // Not listed yet, or a claimed page to show: it is read by its printed label, as the verifier reads it.
      const detail = await client.call('sources.get', { id: sourceId }).catch(() => null);
      kind = detail?.kind ?? kind;
      labels = detail?.pages ?? [];
      // The analyst may have moved on (j/k) while the source was read: a late open must not win.
      if (get().currentId !== citationId) return;
    }
    show(citationId, openPlan(c, kind, (label) => labels.find((p) => p.label === label)?.page ?? null), set);
  },

  openClosest: async (citationId) => {
    set({ currentId: citationId });
    const c = await useCards.getState().cardOf(citationId);
    if (!c) return;
    const sourceId = c.source?.id ?? null;
    let kind = useLibrary.getState().sources.find((s) => s.id === sourceId)?.kind ?? null;
    if (sourceId !== null && !kind) kind = (await client.call('sources.get', { id: sourceId }).catch(() => null))?.kind ?? null;
    const plan = closestPlan(c, kind);
    if (plan) show(citationId, plan, set);
  },

  live: {},
  citationsArrived: async (answerId) => {
    if (!get().live[answerId]) set({ live: { ...get().live, [answerId]: true } });
    if (reloading.has(answerId)) {
      reloading.set(answerId, true);
      return;
    }
    reloading.set(answerId, false);
    try {
      do {
        reloading.set(answerId, false);
        await get().refresh();
        if (get().selectedId !== answerId) continue;
        const opening = await openAnswer(answerId, listFilter(get())).catch(() => null);
        if (opening && get().selectedId === answerId) {
          opening.showCards();
          set({ detail: opening.detail, currentId: get().currentId ?? opening.detail.marks[0]?.id ?? null });
        }
      } while (reloading.get(answerId));
    } finally {
      reloading.delete(answerId);
    }
  },

  setCurrent: (currentId) => set({ currentId }),
  reopen: async () => {
    const id = get().selectedId;
    if (id === null) return;
    const opening = await openAnswer(id, listFilter(get())).catch(() => null);
    if (opening && get().selectedId === id) {
      opening.showCards();
      set({ detail: opening.detail, currentId: get().currentId ?? opening.detail.marks[0]?.id ?? null });
    }
  },
  toggleExpanded: (id) => set({ expanded: { ...get().expanded, [id]: !get().expanded[id] } }),
  setDraft: (draft) => set({ draft, reviewError: null }),
  clearNotices: () => set({ notices: [] }),
}));
