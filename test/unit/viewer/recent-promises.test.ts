import { describe, expect, it } from 'vitest';
import { recentPromises } from '../../../renderer/src/features/viewer/recent-promises.ts';

describe('recentPromises: the viewer’s recent pages and their text, loaded once while recent', () => {
  it('loads a key once, keeps at most `keep`, and drops the least recently used first', async () => {
    const loads: string[] = [];
    const recent = recentPromises<string, string>(2);
    const get = (k: string) => recent.get(k, () => (loads.push(k), Promise.resolve(k.toUpperCase())));
    expect(await get('a')).toBe('A');
    await get('b');
    await get('a'); // a is now the most recent
    await get('c'); // b goes
    await get('a');
    await get('b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('drops a load that failed, so the next look asks again', async () => {
    let calls = 0;
    const recent = recentPromises<number, number>(4);
    const failing = () => (calls++, Promise.reject(new Error('no answer')));
    await expect(recent.get(1, failing)).rejects.toThrow('no answer');
    await expect(recent.get(1, () => (calls++, Promise.resolve(7)))).resolves.toBe(7);
    expect(calls).toBe(2);
  });

  it('forgets the keys asked for', async () => {
    let calls = 0;
    const recent = recentPromises<string, number>(8);
    const load = () => Promise.resolve(++calls);
    await recent.get('1:1', load);
    await recent.get('2:1', load);
    recent.forget((k) => k.startsWith('1:'));
    expect(await recent.get('1:1', load)).toBe(3);
    expect(await recent.get('2:1', load)).toBe(2);
  });
});
