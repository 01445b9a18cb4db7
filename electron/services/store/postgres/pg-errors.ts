/**
 * PostgreSQL's refusals as coded AppErrors: a write refused to a member's access level names the
 * level (the role), a change to an append-only row says so, a lost or refused connection is
 * reported as such. Anything else passes through unchanged.
 */
import { AppError } from '../../../../shared/contract/errors.ts';
import { APPEND_ONLY_SQLSTATE } from './schema-evidence.ts';
import type { AccessLevel } from './schema-access.ts';

/** insufficient_privilege: no grant for the table, or a row that fails a row-level security policy. */
export const INSUFFICIENT_PRIVILEGE = '42501';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03']);

export interface Who {
  login: string;
  level: AccessLevel | null;
}

function sqlState(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The error to throw for `e`, raised while `who` was doing `operation` (a phrase: "add a citation"). */
export function storeError(e: unknown, who: Who, operation: string): unknown {
  if (e instanceof AppError) return e;
  const code = sqlState(e);
  const reason = e instanceof Error ? e.message : String(e);
  const table = (e as { table?: unknown } | null)?.table;
  const base = { sqlstate: code, operation, login: who.login, ...(typeof table === 'string' ? { table } : {}) };
  if (code === INSUFFICIENT_PRIVILEGE) {
    const role = who.level ?? 'no Evidence Desk';
    return new AppError('DATABASE_ROLE_REFUSED', `The ${role} role may not ${operation}: the shared database refused it (${reason}).`, { ...base, role: who.level });
  }
  if (code?.startsWith('28')) {
    // invalid_authorization_specification: an unknown login or a wrong password.
    return new AppError('DATABASE_ROLE_REFUSED', `The shared database refused the login ${who.login}: ${reason}.`, { ...base, role: who.level });
  }
  if (code === APPEND_ONLY_SQLSTATE) {
    return new AppError('EVIDENCE_APPEND_ONLY', `Could not ${operation}: ${reason}.`, base);
  }
  if (code !== undefined && (CONNECTION_CODES.has(code) || code.startsWith('08'))) {
    return new AppError('DATABASE_UNREACHABLE', `Could not ${operation}: the shared database cannot be reached (${reason}).`, base);
  }
  return e;
}
