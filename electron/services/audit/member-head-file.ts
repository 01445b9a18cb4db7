/**
 * A member's own record of the shared chain's head (issue 13): after each audit check that passes,
 * the head it saw is kept in the member's folder, outside the database, one file per chain and
 * login. The next check holds the chain to it, so a chain that is shorter than what this member
 * saw, or whose entry there has another hash, is reported even when the table owner rewrote the
 * log and audit_head together. Same format and check hash as the SQLite head file (shared/audit/head.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { headFileText, parseHeadFile, type AuditHead, type HeadFileState } from '../../../shared/audit/head.ts';
import { sha256Text } from '../store/audit-head-file.ts';

export const MEMBER_HEADS_DIR = 'shared-audit-heads';

/** Which chain, in which database, as which login: what names a member's head file. */
export interface MemberChain {
  /** audit_head's chain_id. */
  chainId: string;
  database: string;
  login: string;
}

/** The file of one chain as one login saw it; names made safe for any file system. */
export function memberHeadPath(dir: string, who: MemberChain): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  return path.join(dir, MEMBER_HEADS_DIR, `${safe(who.chainId)}.${safe(who.database)}.${safe(who.login)}.json`);
}

export function readMemberHead(dir: string, who: MemberChain): HeadFileState {
  let text: string | null = null;
  try {
    text = fs.readFileSync(memberHeadPath(dir, who), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  return parseHeadFile(text, sha256Text);
}

/** Written whole to a temporary file and renamed, so a crash leaves the old head or the new one. */
export function writeMemberHead(dir: string, who: MemberChain, head: AuditHead): void {
  const target = memberHeadPath(dir, who);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temp, headFileText(head, sha256Text));
  fs.renameSync(temp, target);
}
