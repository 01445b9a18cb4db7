/**
 * Walks the audit chain and names the first break and its kind. Pure: the caller reads the
 * entries, hashes the current evidence rows and reads the head file. Kinds:
 * - edited: an entry's content, or the evidence row it records, no longer matches its hash;
 * - removed: an entry is missing (a gap, or a link that skips over it), or a recorded row is gone;
 * - inserted: an entry that does not link into the chain, a second entry for one row, an
 *   evidence row no entry records, or entries after the head the file anchors;
 * - reordered: entries stand in another order than their sequence numbers;
 * - truncated: fewer entries than the head file counts;
 * - rewritten_tail: the entry where the head file points has another hash (recomputed);
 * - head_changed / head_missing: the head file itself was edited or deleted;
 * - unanchored: entries that link correctly follow the head the file anchors (the app stopped
 *   between a commit and the head write, or entries were appended outside it).
 */
import { AUDIT_GENESIS, entryHash, isChainTable, legacyEntryHash, TABLE_NOUN, type Digest } from './canonical.ts';
import type { AuditHead, HeadFileState } from './head.ts';

export type ChainBreakKind = 'edited' | 'removed' | 'inserted' | 'reordered' | 'truncated' | 'rewritten_tail' | 'head_changed' | 'head_missing' | 'unanchored';

export interface ChainEntry {
  id: number;
  /** 1: migration 3's formula, no sequence number or row; 2: the canonical encoding. */
  version: number;
  seq: number | null;
  action: string;
  table: string | null;
  rowId: number | null;
  rowHash: string | null;
  payload: string;
  createdAt: string;
  prevHash: string;
  hash: string;
}

export interface ChainBreak {
  kind: ChainBreakKind;
  /** A sentence for people: what broke and where. */
  message: string;
  /** The audit entry (audit_log id) where the break is, when there is one. */
  entryId?: number;
  /** Its place in the chain (1-based). */
  seq?: number;
  /** The evidence row concerned, when there is one. */
  table?: string;
  rowId?: number;
}

export interface ChainReport {
  ok: boolean;
  /** Entries in the chain. */
  entries: number;
  /** Evidence rows the chain covers. */
  evidenceRows: number;
  /** The last entry's hash. */
  head: string;
  headFile: HeadFileState;
  break?: ChainBreak;
}

export interface ChainInput {
  entries: readonly ChainEntry[];
  /** For each covered table, the current hash of each of its rows by id. */
  rowHashes: ReadonlyMap<string, ReadonlyMap<number, string>>;
  headFile: HeadFileState;
  digest: Digest;
  /** Each source's restricted flag now: checked against the flag its entries last set. */
  restricted?: ReadonlyMap<number, boolean>;
  /** What the head is called in sentences (default: the head file beside the database). */
  anchorLabel?: AnchorLabel;
}

/** Follows the restricted flag through the entries that set it (a source's own entry, restrict, unrestrict). */
function trackRestricted(e: ChainEntry, expected: Map<number, boolean>): void {
  let payload: unknown;
  try {
    payload = JSON.parse(e.payload);
  } catch {
    return;
  }
  if (typeof payload !== 'object' || payload === null) return;
  const p = payload as { restricted?: unknown; sourceIds?: unknown };
  if (e.table === 'sources' && e.rowId !== null && typeof p.restricted === 'boolean') expected.set(e.rowId, p.restricted);
  if ((e.action === 'source.restrict' || e.action === 'source.unrestrict') && Array.isArray(p.sourceIds)) {
    for (const id of p.sourceIds) if (typeof id === 'number') expected.set(id, e.action === 'source.restrict');
  }
}

function noun(table: string): string {
  return isChainTable(table) ? TABLE_NOUN[table] : `Row of ${table}`;
}

function ownHashValid(e: ChainEntry, digest: Digest): boolean {
  if (e.version === 1) return legacyEntryHash(e.prevHash, e.action, e.payload, e.createdAt, digest) === e.hash;
  if (e.version !== 2 || e.seq === null) return false;
  return entryHash({ seq: e.seq, prevHash: e.prevHash, action: e.action, table: e.table, rowId: e.rowId, rowHash: e.rowHash, payload: e.payload, createdAt: e.createdAt }, digest) === e.hash;
}

/** The first break at entry `e` (position `pos`, 1-based), or undefined when it checks out. */
function entryBreak(e: ChainEntry, pos: number, prev: string, input: ChainInput, seqs: ReadonlySet<number>, earlier: ReadonlySet<string>, recorded: ReadonlySet<string>): ChainBreak | undefined {
  const at = { entryId: e.id, seq: pos };
  if (e.version === 2 && e.seq !== pos) {
    if (seqs.has(pos)) return { kind: 'reordered', ...at, message: `Audit entry ${pos} is out of order: entry ${e.seq ?? '?'} stands in its place.` };
    if (e.seq !== null && e.seq > pos) {
      const gap = e.seq - pos === 1 ? `entry ${pos} is` : `entries ${pos} to ${e.seq - 1} are`;
      return { kind: 'removed', ...at, message: `Audit ${gap} missing: the chain jumps from entry ${pos - 1} to entry ${e.seq}.` };
    }
    return { kind: 'inserted', ...at, message: `An audit entry was added at place ${pos}: its sequence number ${e.seq ?? 'is missing'} belongs to another entry.` };
  }
  if (e.prevHash !== prev) {
    // A genuine entry of version 1 (no sequence number) whose link points nowhere followed one that was removed.
    if (earlier.has(e.prevHash) || (e.version === 1 && ownHashValid(e, input.digest))) {
      return { kind: 'removed', ...at, message: `An audit entry before entry ${pos} is missing: entry ${pos} links past it.` };
    }
    return { kind: 'inserted', ...at, message: `Audit entry ${pos} does not link to the entry before it: it was added outside the chain.` };
  }
  if (!ownHashValid(e, input.digest)) return { kind: 'edited', ...at, message: `Audit entry ${pos} (${e.action}) was changed after it was written.` };
  if (e.table !== null) {
    const key = `${e.table}:${e.rowId ?? ''}`;
    const where = { ...at, table: e.table, ...(e.rowId !== null ? { rowId: e.rowId } : {}) };
    const name = `${noun(e.table)} ${e.rowId ?? '?'}`;
    if (recorded.has(key)) return { kind: 'inserted', ...where, message: `Audit entry ${pos} records ${name} a second time.` };
    const current = e.rowId === null ? undefined : input.rowHashes.get(e.table)?.get(e.rowId);
    if (current === undefined) return { kind: 'removed', ...where, message: `${name} was deleted from the record (audit entry ${pos} recorded it).` };
    if (current !== e.rowHash) return { kind: 'edited', ...where, message: `${name} was changed after it was recorded (audit entry ${pos}).` };
  }
  return undefined;
}

/** What the anchor is called in a break's sentence (the SQLite head file by default). */
export interface AnchorLabel {
  /** e.g. "the head file", "the shared head record", "this member's head file". */
  name: string;
  /** Where the chain is held, e.g. "the database", "the audit log". */
  holder: string;
}

const HEAD_FILE_LABEL: AnchorLabel = { name: 'the head file', holder: 'the database' };

/**
 * Whether a chain whose entry hashes are `hashes` still ends at or after `head`: a cut tail
 * (fewer entries than the head counts, naming the ones gone) or a rewritten one (the entry at the
 * head's count has another hash). Undefined when the chain holds the head.
 */
export function anchorBreak(head: AuditHead, hashes: readonly string[], label: AnchorLabel = HEAD_FILE_LABEL): ChainBreak | undefined {
  const n = hashes.length;
  if (n < head.count) {
    const lost = head.count - n;
    const gone = lost === 1 ? `the last entry is gone: entry ${head.count}` : `the last ${lost} entries are gone: entries ${n + 1} to ${head.count}`;
    return { kind: 'truncated', seq: n + 1, message: `The chain was cut short: ${label.name} counts ${head.count} audit entries, ${label.holder} holds ${n} (${gone}).` };
  }
  const at = head.count === 0 ? AUDIT_GENESIS : hashes[head.count - 1];
  if (at !== head.hash) {
    return { kind: 'rewritten_tail', seq: head.count, message: `The end of the chain was rewritten: audit entry ${head.count} no longer has the hash ${label.name} recorded on ${head.at}.` };
  }
  return undefined;
}

function headBreak(input: ChainInput, hashes: readonly string[]): ChainBreak | undefined {
  const file = input.headFile;
  if (file.state === 'missing') return { kind: 'head_missing', message: 'The head file beside the database is missing: it was deleted, so the end of the chain cannot be checked.' };
  if (file.state === 'changed') return { kind: 'head_changed', message: `The head file beside the database was changed: ${file.reason}.` };
  return anchorBreak(file.head, hashes, input.anchorLabel);
}

/** Walks the entries in id order; the first problem found is the reported break. */
export function walkChain(input: ChainInput): ChainReport {
  const seqs = new Set<number>();
  for (const e of input.entries) if (e.seq !== null) seqs.add(e.seq);
  const earlier = new Set<string>([AUDIT_GENESIS]);
  const recorded = new Set<string>();
  const hashes: string[] = [];
  let prev = AUDIT_GENESIS;
  let evidenceRows = 0;
  for (const rows of input.rowHashes.values()) evidenceRows += rows.size;
  const report = (b?: ChainBreak): ChainReport => ({
    ok: b === undefined,
    entries: input.entries.length,
    evidenceRows,
    head: input.entries.length > 0 ? (input.entries[input.entries.length - 1]?.hash ?? AUDIT_GENESIS) : AUDIT_GENESIS,
    headFile: input.headFile,
    ...(b ? { break: b } : {}),
  });
  const expectedRestricted = new Map<number, boolean>();
  let pos = 0;
  for (const e of input.entries) {
    pos++;
    const b = entryBreak(e, pos, prev, input, seqs, earlier, recorded);
    if (b) return report(b);
    trackRestricted(e, expectedRestricted);
    if (e.table !== null) recorded.add(`${e.table}:${e.rowId ?? ''}`);
    earlier.add(e.hash);
    hashes.push(e.hash);
    prev = e.hash;
  }
  const h = headBreak(input, hashes);
  if (h) return report(h);
  for (const [table, rows] of input.rowHashes) {
    const ids = [...rows.keys()].filter((id) => !recorded.has(`${table}:${id}`)).sort((a, b) => a - b);
    const first = ids[0];
    if (first !== undefined) {
      return report({ kind: 'inserted', table, rowId: first, message: `${noun(table)} ${first} was added to the record outside Evidence Desk: no audit entry records it.` });
    }
  }
  for (const [id, now] of input.restricted ?? []) {
    const expected = expectedRestricted.get(id);
    if (expected !== undefined && expected !== now) {
      return report({
        kind: 'edited',
        table: 'sources',
        rowId: id,
        message: `Source ${id}'s restriction was ${now ? 'turned on' : 'lifted'} outside Evidence Desk: the record says it is ${expected ? 'restricted' : 'not restricted'}.`,
      });
    }
  }
  if (input.headFile.state === 'ok' && hashes.length > input.headFile.head.count) {
    const first = input.headFile.head.count + 1;
    const e = input.entries[first - 1];
    const which = first === hashes.length ? `Audit entry ${first} follows` : `Audit entries ${first} to ${hashes.length} follow`;
    return report({
      kind: 'unanchored',
      seq: first,
      ...(e ? { entryId: e.id } : {}),
      message: input.anchorLabel
        ? `${which} the head ${input.anchorLabel.name} records: entries were added outside Evidence Desk, or the head was moved back.`
        : `${which} the head the file anchors: Evidence Desk stopped before it could update the head file, or entries were added outside it.`,
    });
  }
  return report();
}
