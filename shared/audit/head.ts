/**
 * The head anchor: the chain's last hash, its entry count and when it was written, kept in a
 * small file beside the database so that a truncated chain or a rewritten tail (hashes recomputed
 * inside the database) no longer matches it. `check` is the hash of the other fields: an edited
 * file that did not recompute it reads as changed, not as a database break.
 */
import { canonicalJson, type Digest } from './canonical.ts';

export const HEAD_FORMAT = 'evidence-desk/audit-head@1';
export const HEAD_FILE = 'audit-head.json';

export interface AuditHead {
  /** Entries in the chain. */
  count: number;
  /** The last entry's hash (the genesis hash for an empty chain). */
  hash: string;
  /** When the head was written (ISO 8601). */
  at: string;
}

/** The workspace key's signature over the head (optional: files written before signing have none). */
export interface HeadSignature {
  /** Ed25519 public key, base64 of its 32 bytes. */
  publicKey: string;
  /** Base64 signature of `headMessage(head)`. */
  signature: string;
}

export type HeadFileState = { state: 'ok'; head: AuditHead; signed?: HeadSignature } | { state: 'missing' } | { state: 'changed'; reason: string };

/** The canonical text the check hash and the signature cover. */
export function headMessage(head: AuditHead): string {
  return canonicalJson({ format: HEAD_FORMAT, count: head.count, hash: head.hash, at: head.at });
}

function headCheck(head: AuditHead, digest: Digest): string {
  return digest(headMessage(head));
}

export function headFileText(head: AuditHead, digest: Digest, signed?: HeadSignature): string {
  const file = { format: HEAD_FORMAT, count: head.count, hash: head.hash, at: head.at, check: headCheck(head, digest), ...(signed ?? {}) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Reads a head file's text; anything but an intact file of this format is 'changed', with why. */
export function parseHeadFile(text: string | null, digest: Digest): HeadFileState {
  if (text === null) return { state: 'missing' };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { state: 'changed', reason: 'it is not JSON' };
  }
  if (typeof v !== 'object' || v === null) return { state: 'changed', reason: 'it is not a head record' };
  const o = v as Record<string, unknown>;
  if (o.format !== HEAD_FORMAT) return { state: 'changed', reason: `its format is not ${HEAD_FORMAT}` };
  const { count, hash, at, check } = o;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return { state: 'changed', reason: 'its count is not a whole number' };
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return { state: 'changed', reason: 'its hash is not a SHA-256' };
  if (typeof at !== 'string') return { state: 'changed', reason: 'its time is missing' };
  const head: AuditHead = { count, hash, at };
  if (check !== headCheck(head, digest)) return { state: 'changed', reason: 'its fields do not match its check hash' };
  const { publicKey, signature } = o;
  if (typeof publicKey === 'string' && typeof signature === 'string') return { state: 'ok', head, signed: { publicKey, signature } };
  return { state: 'ok', head };
}
