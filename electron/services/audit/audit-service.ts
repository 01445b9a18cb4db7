/**
 * The audit chain's check (DESIGN.md §3, §11): reads the entries, hashes every covered evidence
 * row as it is now, reads the head file, and lets the pure walk (shared/audit) name the first
 * break. Also the current head, for exports and `evidesk verify --json` to print.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AuditCheckData } from '../../../shared/contract/answer-schemas.ts';
import { AppError, type ErrorData } from '../../../shared/contract/errors.ts';
import { asarUnpackedUrl } from '../ingest/asar-unpacked.ts';
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

  /**
   * The same check in a worker thread, so the process goes on answering while it hashes every row
   * (issue 16: seconds at 100,000 sources). Where no worker can start, it runs here instead.
   */
  async checkInBackground(): Promise<AuditCheckData> {
    const file = this.chain.db.name;
    if (this.chain.db.memory || file === '' || file === ':memory:') return this.check();
    let reply: WorkerReply;
    try {
      reply = await runWorker(file);
    } catch {
      return this.check();
    }
    if (reply.ok) return reply.value;
    throw new AppError(reply.error.code, reply.error.message, reply.error.details);
  }
}

type WorkerReply = { ok: true; value: AuditCheckData } | { ok: false; error: ErrorData };

/** The worker's script beside this file (source, run by Node 24 directly) or beside the bundle. */
function workerScript(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('./audit-worker.ts', here) : asarUnpackedUrl(new URL('../workers/audit-worker.mjs', here)));
}

function runWorker(file: string): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerScript(), { workerData: { file } });
    let settled = false;
    worker.once('message', (reply: WorkerReply) => {
      settled = true;
      resolve(reply);
    });
    worker.once('error', (e) => {
      if (!settled) reject(e);
      settled = true;
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the audit worker stopped (exit code ${code})`));
      settled = true;
    });
  });
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
