/**
 * The workspace's Ed25519 key, which signs the audit head file. Made at the first head write and
 * kept beside the database (owner-only permissions). A head file rewritten by someone without the
 * key no longer verifies; the public key identifies the workspace in exports.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const KEY_FILE = 'audit-key.pem';

export function keyFilePath(workspaceDir: string): string {
  return path.join(workspaceDir, KEY_FILE);
}

/** The public key as base64 of its raw 32 bytes (the last 32 of the SPKI DER). */
export function publicKeyText(key: KeyObject): string {
  const der = createPublicKey(key).export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32).toString('base64');
}

function publicKeyFromText(text: string): KeyObject {
  // SPKI DER of an Ed25519 key: a fixed 12-byte prefix, then the raw key.
  const prefix = Buffer.from('302a300506032b6570032100', 'hex');
  return createPublicKey({ key: Buffer.concat([prefix, Buffer.from(text, 'base64')]), format: 'der', type: 'spki' });
}

/** The workspace's private key, or null when it has none yet. */
export function readWorkspaceKey(workspaceDir: string): KeyObject | null {
  try {
    return createPrivateKey(fs.readFileSync(keyFilePath(workspaceDir), 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** The key, made (and written with owner-only permissions, never overwritten) on first use. */
export function workspaceKey(workspaceDir: string): KeyObject {
  const existing = readWorkspaceKey(workspaceDir);
  if (existing) return existing;
  const { privateKey } = generateKeyPairSync('ed25519');
  try {
    fs.writeFileSync(keyFilePath(workspaceDir), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (e) {
    // Another process made it first: use that one.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readWorkspaceKey(workspaceDir) ?? privateKey;
    throw e;
  }
  return privateKey;
}

export function signText(key: KeyObject, message: string): string {
  return sign(null, Buffer.from(message, 'utf8'), key).toString('base64');
}

/** Does `signature` sign `message` under the public key `publicKey` (base64 raw)? */
export function verifyText(publicKey: string, message: string, signature: string): boolean {
  try {
    return verify(null, Buffer.from(message, 'utf8'), publicKeyFromText(publicKey), Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
