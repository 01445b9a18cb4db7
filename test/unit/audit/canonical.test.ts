import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDIT_GENESIS, canonicalJson, entryHash, legacyEntryHash, rowHash } from '../../../shared/audit/canonical.ts';
import { walkChain, type ChainEntry } from '../../../shared/audit/chain-walk.ts';
import { headFileText, parseHeadFile } from '../../../shared/audit/head.ts';

const digest = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');

describe('canonical encodings of the audit chain', () => {
  it('sorts keys at every depth and drops no information', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 'x'], c: null } })).toBe('{"a":{"c":null,"d":[2,"x"]},"b":1}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/no JSON form/);
  });

  it('has no ambiguous joins where the legacy formula had them', () => {
    // Version 1 joined fields as they are: moving a character between action and payload kept the hash.
    expect(legacyEntryHash(AUDIT_GENESIS, 'ab', 'c', 't', digest)).toBe(legacyEntryHash(AUDIT_GENESIS, 'a', 'bc', 't', digest));
    const base = { seq: 1, prevHash: AUDIT_GENESIS, table: null, rowId: null, rowHash: null, createdAt: 't' };
    expect(entryHash({ ...base, action: 'ab', payload: 'c' }, digest)).not.toBe(entryHash({ ...base, action: 'a', payload: 'bc' }, digest));
    const row = { id: 1, citation_id: 2, decision: 'accepted', note: null, supersedes_id: null, created_at: 't' };
    expect(rowHash('review_decisions', row, digest)).not.toBe(rowHash('review_decisions', { ...row, note: '' }, digest));
    // Columns outside the covered list (added by later migrations) do not change a row's hash.
    expect(rowHash('review_decisions', { ...row, extra: 5 }, digest)).toBe(rowHash('review_decisions', row, digest));
  });

  it('reads back the head file it writes, and calls an edited one changed', () => {
    const head = { count: 3, hash: 'a'.repeat(64), at: '2026-11-24T10:00:00.000Z' };
    const text = headFileText(head, digest);
    expect(parseHeadFile(text, digest)).toEqual({ state: 'ok', head });
    expect(parseHeadFile(text.replace('"count": 3', '"count": 2'), digest)).toMatchObject({ state: 'changed' });
    expect(parseHeadFile('not json', digest)).toMatchObject({ state: 'changed' });
    expect(parseHeadFile(null, digest)).toEqual({ state: 'missing' });
  });

  it('walks an action-only chain and finds a removed middle entry of version 1 by its link', () => {
    const entries: ChainEntry[] = [];
    let prev = AUDIT_GENESIS;
    for (let i = 1; i <= 3; i++) {
      const hash = legacyEntryHash(prev, 'a', `{"i":${i}}`, 't', digest);
      entries.push({ id: i, version: 1, seq: null, action: 'a', table: null, rowId: null, rowHash: null, payload: `{"i":${i}}`, createdAt: 't', prevHash: prev, hash });
      prev = hash;
    }
    const headFile = { state: 'ok' as const, head: { count: 3, hash: prev, at: 't' } };
    expect(walkChain({ entries, rowHashes: new Map(), headFile, digest })).toMatchObject({ ok: true, entries: 3, head: prev });
    const broken = walkChain({ entries: [entries[0], entries[2]].filter((e): e is ChainEntry => e !== undefined), rowHashes: new Map(), headFile, digest });
    expect(broken.break).toMatchObject({ kind: 'removed', entryId: 3, seq: 2 });
  });
});
