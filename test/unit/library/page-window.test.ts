import { describe, expect, it } from 'vitest';
import { emptyWindow, findHeld, heldRows, holdPage, pagesCovering, rowAt } from '../../../renderer/src/app/page-window.ts';
import { moveIndex } from '../../../renderer/src/features/library/list-words.ts';

const page = (k: number, size = 10) => Array.from({ length: size }, (_, i) => k * size + i);

describe('the few pages a long list holds', () => {
  it('holds at most the bound, dropping the least recently used but never a page still needed', () => {
    let w = emptyWindow<number>(10);
    for (const k of [0, 1, 2, 3]) w = holdPage(w, k, page(k), 3, k === 3 ? [0] : []);
    expect([...w.pages.keys()].sort()).toEqual([0, 2, 3]);
    expect(rowAt(w, 25)).toBe(25);
    expect(rowAt(w, 15)).toBeUndefined();
    expect(heldRows(w)).toEqual([...page(0), ...page(2), ...page(3)]);
    expect(findHeld(w, (r) => r === 37)).toBe(37);
    expect(findHeld(w, (r) => r === 12)).toBe(-1);
  });

  it('names the pages under a range of positions', () => {
    expect(pagesCovering(100, 95, 205)).toEqual([0, 1, 2]);
    expect(pagesCovering(100, 5, 4)).toEqual([]);
  });

  it('moves the active row by key within the list', () => {
    expect(moveIndex('End', 3, 10_000, 20)).toBe(9_999);
    expect(moveIndex('Home', 500, 10_000, 20)).toBe(0);
    expect(moveIndex('PageDown', 9_990, 10_000, 20)).toBe(9_999);
    expect(moveIndex('ArrowUp', 0, 10_000, 20)).toBe(0);
    expect(moveIndex('x', 0, 10, 20)).toBeNull();
    expect(moveIndex('End', 0, 0, 20)).toBeNull();
  });
});
