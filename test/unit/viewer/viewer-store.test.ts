import { describe, expect, it } from 'vitest';
import { useViewer } from '../../../renderer/src/features/viewer/viewer-store.ts';

describe('the viewer store', () => {
  it('opens a flowing document at a target, and forgets the target when another source opens', () => {
    const target = { at: 4, endAt: 5, range: { start: 10, end: 3 } };
    useViewer.getState().openAt(7, 'docx', target);
    expect(useViewer.getState()).toMatchObject({ sourceId: 7, kind: 'docx', target, highlight: null });
    useViewer.getState().setTarget({ at: 12 });
    expect(useViewer.getState().target).toEqual({ at: 12 });
    useViewer.getState().open(8, 'pdf', 3, { page: 3, start: 0, end: 5 });
    expect(useViewer.getState()).toMatchObject({ sourceId: 8, kind: 'pdf', page: 3, target: null });
  });
});
