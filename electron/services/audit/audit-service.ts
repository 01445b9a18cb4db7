/**
 * The audit chain's check (DESIGN.md §3, §11): reads the entries, hashes every covered evidence
 * row as it is now, reads the head file, and lets the pure walk (shared/audit) name the first
 * break. Also the current head, for exports and `evidesk verify --json` to print.
 */
import type { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import { walkChain, type ChainReport } from '../../../shared/audit/chain-walk.ts';
import { parseHeadFile, type AuditHead } from '../../../shared/audit/head.ts';
import { checkHeadSignature, readHeadFileText, sha256Text } from '../store/audit-head-file.ts';
import { publicKeyText, readWorkspaceKey } from '../store/audit-key.ts';
import { ChainStore } from '../store/audit-chain-store.ts';
import type { Db } from '../store/database.ts';

/** The chain's head as the database holds it now, and the workspace's public key (when it has one): what an export prints as its anchor. */
export function currentAuditHead(db: Db): AuditHead & { publicKey?: string } {
  const chain = new ChainStore(db);
  const { count, hash } = chain.head();
  const key = readWorkspaceKey(chain.workspaceDir);
  return { count, hash, at: new Date().toISOString(), ...(key ? { publicKey: publicKeyText(key) } : {}) };
}

export class AuditService {
  private readonly chain: ChainStore;
  constructor(db: Db) {
    this.chain = new ChainStore(db);
  }

  private walkOnce(): ChainReport {
    // The head file first, then the rows in one read snapshot: a writer commits before it writes
    // the head, so the file is never ahead of the snapshot read after it.
    const dir = this.chain.workspaceDir;
    const headFile = checkHeadSignature(dir, parseHeadFile(readHeadFileText(dir), sha256Text));
    return this.chain.db.transaction(() => walkChain({ entries: this.chain.entries(), rowHashes: this.chain.rowHashes(), restricted: this.chain.restrictedFlags(), headFile, digest: sha256Text }))();
  }

  /** Walks the chain; a break seen once is looked at again, so another process's write in between is not taken for one. */
  verify(): ChainReport {
    const first = this.walkOnce();
    return first.ok ? first : this.walkOnce();
  }

  head(): AuditHead & { publicKey?: string } {
    return currentAuditHead(this.chain.db);
  }

  /** The contract's shape of the check (audit.verify). */
  check(): AuditCheckData {
    return checkData(this.verify());
  }
}

export function checkData(r: ChainReport): AuditCheckData {
  const b = r.break;
  const file = r.headFile;
  return {
    ok: r.ok,
    rows: r.entries,
    head: r.head,
    evidenceRows: r.evidenceRows,
    headFile: file.state === 'ok' ? { state: 'ok', ...file.head, ...(file.signed ? { publicKey: file.signed.publicKey } : {}) } : file.state === 'changed' ? { state: 'changed', reason: file.reason } : { state: 'missing' },
    ...(b
      ? {
          brokenAt: {
            id: b.entryId ?? 0,
            reason: b.message,
            kind: b.kind,
            ...(b.seq !== undefined ? { seq: b.seq } : {}),
            ...(b.table !== undefined ? { table: b.table } : {}),
            ...(b.rowId !== undefined ? { rowId: b.rowId } : {}),
          },
        }
      : {}),
  };
}
