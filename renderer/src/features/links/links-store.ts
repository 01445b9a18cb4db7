import { create } from 'zustand';
import type { LinkResolution } from '../../../../shared/contract/link-schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import { useAnswers } from '../answers/answers-store.ts';
import { useLibrary } from '../library/library-store.ts';
import { useViewer } from '../viewer/viewer-store.ts';

/** What the analyst is told about the last link opened, and what can be done next. */
export interface LinkNotice {
  tone: 'ok' | 'warn' | 'error';
  text: string;
  /** Why, for a tooltip: the error code or the link's state. */
  code?: string;
  /** The source the link names and the workspace lacks: offer to find it by hash. */
  missing?: { sha256: string; text: string };
}

interface LinksState {
  notice: LinkNotice | null;
  busy: boolean;
  search: { tone: 'ok' | 'error'; text: string; found?: string } | null;
  /** The last link opened, to open again once its file is added. */
  last: string | null;
  /** Opens a link (evidesk://open?…, or the browser form #/open?…). Reads only. */
  openLink(raw: string): Promise<void>;
  findByHash(dir: string): Promise<void>;
  /** Adds the file the hash search found (the analyst's choice: the one write here) and opens the link again. */
  addFound(): Promise<void>;
  dismiss(): void;
}

/** A link that opens nothing leaves nothing on show that it did not find (an earlier document's highlight). */
function showNothing(): void {
  useViewer.setState({ sourceId: null, kind: null, highlight: null, target: null, page: 1, pageCount: 0 });
}

function show(r: Extract<LinkResolution, { state: 'found' }>): void {
  const { place } = r;
  if (r.kind === 'pdf') {
    const highlight = { page: place.at, start: place.start, end: place.end, ...(place.endAt !== place.at ? { endPage: place.endAt } : {}) };
    useViewer.getState().open(r.sourceId, 'pdf', place.at, highlight);
  } else {
    useViewer.getState().openAt(r.sourceId, r.kind, { at: place.at, ...(place.endAt !== place.at ? { endAt: place.endAt } : {}), range: { start: place.start, end: place.end } });
  }
}

export const useLinks = create<LinksState>((set, get) => ({
  notice: null,
  busy: false,
  search: null,
  last: null,

  openLink: async (raw) => {
    // Refused here first, so a hostile link never reaches the services: a plain sentence, the code in the tooltip.
    // The link's schema (zod) is fetched with the first link: the first screen's code holds none (issue 16).
    let links: typeof import('../../../../shared/links/citation-link.ts');
    try {
      links = await import('../../../../shared/links/citation-link.ts');
    } catch (e) {
      set({ notice: { tone: 'error', text: 'This link cannot be opened now: the app could not load its code for links. Try again.', code: (e as Error).message }, search: null });
      return;
    }
    const parsed = links.parseCitationLink(raw);
    if (!parsed.ok) {
      showNothing();
      set({ notice: { tone: 'error', text: `This link cannot be opened: ${parsed.problem.reason}.`, code: `LINK_INVALID (${parsed.problem.kind})` }, search: null });
      return;
    }
    set({ busy: true, search: null, last: raw });
    try {
      const r = await client.call('links.resolve', { link: raw });
      if (r.state === 'missing') {
        showNothing();
        set({ notice: { tone: 'warn', text: r.message, code: 'missing source', missing: { sha256: r.sha256, text: r.text } } });
        return;
      }
      show(r);
      set({ notice: { tone: r.how === 'offsets' ? 'ok' : 'warn', text: r.message, code: r.how === 'offsets' ? 'opened at its offsets' : 'found by its quote fragment' } });
      if (r.answerId !== null && r.citationId !== null) {
        const answers = useAnswers.getState();
        await answers.select(r.answerId);
        useAnswers.getState().setCurrent(r.citationId);
      }
    } catch (e) {
      const err = e instanceof ClientError ? e : null;
      showNothing();
      set({ notice: { tone: 'error', text: err ? err.message : String(e), ...(err ? { code: err.code } : {}) } });
    } finally {
      set({ busy: false });
    }
  },

  findByHash: async (dir) => {
    const missing = get().notice?.missing;
    if (!missing || !dir.trim()) return;
    set({ busy: true, search: null });
    try {
      const r = await client.call('links.findByHash', { sha256: missing.sha256, dir: dir.trim() });
      set({ search: r.found ? { tone: 'ok', text: r.message, found: r.found } : { tone: 'error', text: r.message } });
    } catch (e) {
      set({ search: { tone: 'error', text: e instanceof ClientError ? e.message : String(e) } });
    } finally {
      set({ busy: false });
    }
  },

  addFound: async () => {
    const { search, last } = get();
    if (!search?.found || !last) return;
    set({ busy: true });
    try {
      const result = await client.call('sources.ingest', { paths: [search.found] });
      const failed = result.files.find((f) => !f.ok);
      if (failed) throw new Error(`${search.found} could not be added.`);
      await useLibrary.getState().refresh();
    } catch (e) {
      set({ busy: false, search: { tone: 'error', text: e instanceof ClientError || e instanceof Error ? e.message : String(e) } });
      return;
    }
    set({ busy: false });
    await get().openLink(last);
  },

  dismiss: () => set({ notice: null, search: null }),
}));
