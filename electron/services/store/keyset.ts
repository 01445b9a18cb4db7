import { AppError } from '../../../shared/contract/errors.ts';
import type { SortDirection } from '../../../shared/contract/list-schemas.ts';

/**
 * Keyset paging (issue 16): a page starts after the (sort key, id) of the last row the caller holds,
 * so it is found through an index whatever its depth, and rows inserted meanwhile are neither
 * repeated nor skipped. The cursor is that pair as JSON: opaque to callers, checked when read back.
 */
export type SortKey = string | number | null;

export function encodeCursor(key: SortKey, id: number): string {
  return JSON.stringify([key, id]);
}

export function decodeCursor(cursor: string, field = 'after'): { key: SortKey; id: number } {
  let v: unknown;
  try {
    v = JSON.parse(cursor);
  } catch {
    v = undefined;
  }
  if (
    !Array.isArray(v) ||
    v.length !== 2 ||
    !(typeof v[0] === 'string' || typeof v[0] === 'number' || v[0] === null) ||
    typeof v[1] !== 'number' ||
    !Number.isSafeInteger(v[1])
  ) {
    throw new AppError('INVALID_INPUT', `The ${field} cursor is not one this list gave out: ask for the first page again.`, { field });
  }
  return { key: v[0] as SortKey, id: v[1] as number };
}

/**
 * The WHERE part that starts a page after (key, id), and the ORDER BY that goes with it. `keyExpr`
 * is the sort key's SQL (with its collation); `idExpr` the unique tiebreak. A NULL key (allowed for
 * nullable columns) sorts first ascending, as SQLite does, so the predicate spells that out.
 */
export function keysetClause(keyExpr: string, idExpr: string, dir: SortDirection, after: { key: SortKey; id: number } | undefined): { where: string; params: unknown[]; orderBy: string } {
  const d = dir === 'asc' ? 'ASC' : 'DESC';
  const orderBy = `${keyExpr} ${d}, ${idExpr} ${d}`;
  if (after === undefined) return { where: '', params: [], orderBy };
  const cmp = dir === 'asc' ? '>' : '<';
  if (after.key === null) {
    // Among NULL keys by id, then (ascending) every non-NULL key; descending, NULLs come last.
    const rest = dir === 'asc' ? ` OR ${keyExpr} IS NOT NULL` : '';
    return { where: `((${keyExpr} IS NULL AND ${idExpr} ${cmp} ?)${rest})`, params: [after.id], orderBy };
  }
  const nulls = dir === 'desc' ? ` OR ${keyExpr} IS NULL` : '';
  return { where: `((${keyExpr}, ${idExpr}) ${cmp} (?, ?)${nulls})`, params: [after.key, after.id], orderBy };
}

/** `%word%` for LIKE with its wildcards escaped (the clause must say ESCAPE '\'). */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
