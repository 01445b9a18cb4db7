/**
 * `audit.verify` on a shared workspace (issue 13): the single chain walked in one snapshot, its
 * end held to the head the database records (audit_head) and to the head this member saw last
 * (its own head file, outside the database). A check that passes moves the member's file on to
 * the head it just verified; a failing one leaves it, so the next check reports the break again.
 */
import type { AuditHead } from '../../../shared/audit/head.ts';
import type { PgChainReport } from '../store/postgres/pg-audit-chain.ts';
import type { PgStore } from '../store/postgres/pg-store.ts';
import { readMemberHead, writeMemberHead } from './member-head-file.ts';

export async function verifySharedChain(store: PgStore, memberDir: string): Promise<PgChainReport> {
  const before = await store.recordedHead();
  // Before migration 13 there is no chain id to keep a head under: the walk alone.
  if (!before) return store.verifyChain();
  const who = { chainId: before.chainId, database: before.database, login: store.who.login };
  const file = readMemberHead(memberDir, who);
  if (file.state === 'changed') {
    return { ...(await store.verifyChain()), ok: false, break: { kind: 'head_changed', message: `This member's head file of the shared chain was changed: ${file.reason}.` } };
  }
  const seen: AuditHead | undefined = file.state === 'ok' ? file.head : undefined;
  const report = await store.verifyChain(undefined, seen);
  if (report.ok && report.recordedHead?.chainId === before.chainId) {
    writeMemberHead(memberDir, who, { count: report.entries, hash: report.head, at: new Date().toISOString() });
  }
  return report;
}
