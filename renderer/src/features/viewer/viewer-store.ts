import { create } from 'zustand';
import type { SourceKind } from '../../../../shared/contract/schemas.ts';

export interface Highlight {
  page: number;
  start: number;
  end: number;
}

interface ViewerState {
  sourceId: number | null;
  kind: SourceKind | null;
  page: number;
  pageCount: number;
  highlight: Highlight | null;
  open(sourceId: number, kind: SourceKind, page?: number, highlight?: Highlight | null): void;
  setPageCount(n: number): void;
  goTo(page: number): void;
}

export const useViewer = create<ViewerState>((set, get) => ({
  sourceId: null,
  kind: null,
  page: 1,
  pageCount: 0,
  highlight: null,
  open: (sourceId, kind, page = 1, highlight = null) => set({ sourceId, kind, page, highlight, pageCount: get().sourceId === sourceId ? get().pageCount : 0 }),
  setPageCount: (pageCount) => set({ pageCount, page: Math.min(get().page, Math.max(1, pageCount)) }),
  goTo: (page) => {
    const { pageCount } = get();
    const clamped = Math.max(1, pageCount > 0 ? Math.min(page, pageCount) : page);
    set({ page: clamped });
  },
}));
