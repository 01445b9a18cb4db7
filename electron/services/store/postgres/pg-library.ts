/**
 * Library changes on PostgreSQL (issue 13): an answer renamed, an answer or a source removed from
 * view and shown again, each an appended library_changes row (migration 4) with its audit entry
 * as SQLite's LibraryChangesStore records it, in one transaction. Row-level security decides who
 * may: an admin any change, a reviewer an answer's in its projects; a source's changes are the
 * pool's (every member reads them), an answer's its project's.
 */
import { AppError } from '../../../../shared/contract/errors.ts';
import type { ImportedAnswerRow, LibraryArea } from '../evidence-store.ts';
import { noSuchSources } from '../../sources/restriction.ts';
import { appendEntries } from './pg-audit-chain.ts';
import { INSUFFICIENT_PRIVILEGE } from './pg-errors.ts';
import { pgRead, pgTransaction, type PgContext } from './pg-tx.ts';

type Subject = 'answer' | 'source';
type Action = 'rename' | 'hide' | 'show';

/** The change as an analyst says it, for a refusal: "The reviewer role may not remove a source from the library". */
function phrase(subject: Subject, action: Action): string {
  if (action === 'rename') return `rename ${subject === 'answer' ? 'an answer' : 'a source'}`;
  const what = subject === 'answer' ? 'an answer' : 'a source';
  return action === 'hide' ? `remove ${what} from the library` : `restore ${what} to the library`;
}

/**
 * The shared pool of sources is an admin's business: a role's refusal says who may
 * ("The reviewer role may not …: only an admin <duty>, and the shared database refused it (…)").
 */
export function onlyAnAdmin(e: unknown, duty: string, ctx: PgContext): unknown {
  if (!(e instanceof AppError) || e.code !== 'DATABASE_ROLE_REFUSED' || e.details?.sqlstate !== INSUFFICIENT_PRIVILEGE) return e;
  const [head, ...rest] = e.message.split(': ');
  return new AppError('DATABASE_ROLE_REFUSED', `${head}: only an admin ${duty}, and ${rest.join(': ')}`, { ...e.details, role: ctx.who.level });
}

/** A source's removal is the pool's business: the refusal says who may. */
function whoMay(e: unknown, subject: Subject, ctx: PgContext): unknown {
  return subject === 'source' ? onlyAnAdmin(e, "removes or restores the shared workspace's sources", ctx) : e;
}

export function pgLibrary(ctx: PgContext): LibraryArea {
  return {
    append: (subject, subjectId, action, value, now) =>
      pgTransaction(ctx, phrase(subject, action), async (c) => {
        const row = (
          await c.query<Record<string, unknown> & { id: number }>(
            'INSERT INTO library_changes (subject, subject_id, action, value, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
            [subject, subjectId, action, value, now],
          )
        ).rows[0];
        if (!row) throw new Error('the library change was not returned');
        await appendEntries(c, [{ action: `${subject}.${action}`, table: 'library_changes', row, payload: { id: subjectId, ...(value === null ? {} : { value }) } }], now);
        return Number(row.id);
      }).catch((e: unknown) => {
        throw whoMay(e, subject, ctx);
      }),

    // The flag is the pool's security setting: PostgreSQL lets only an admin update it (the grant in schema-access.ts).
    restrict: (ids, restricted, now) =>
      pgTransaction(ctx, restricted ? 'mark sources restricted' : "lift sources' restriction", async (c) => {
        const wanted = [...new Set(ids)];
        const known = new Set((await c.query<{ id: number }>('SELECT id FROM sources WHERE id = ANY ($1)', [wanted])).rows.map((r) => Number(r.id)));
        const missing = wanted.filter((id) => !known.has(id));
        if (missing.length > 0) throw noSuchSources(missing);
        const flag = restricted ? 1 : 0;
        const changed = (await c.query<{ id: number }>('UPDATE sources SET restricted = $1 WHERE id = ANY ($2) AND restricted <> $1 RETURNING id', [flag, wanted])).rows
          .map((r) => Number(r.id))
          .sort((a, b) => a - b);
        if (changed.length > 0) await appendEntries(c, [{ action: restricted ? 'source.restrict' : 'source.unrestrict', payload: { sourceIds: changed } }], now);
        return changed;
      }).catch((e: unknown) => {
        throw onlyAnAdmin(e, "marks the shared workspace's sources restricted", ctx);
      }),

    async hidden(subject) {
      const rows = await pgRead<{ id: number }>(ctx, 'read what was removed from the library', 'SELECT subject_id AS id FROM hidden_subjects WHERE subject = $1', [subject]);
      return new Set(rows.map((r) => Number(r.id)));
    },

    async isHidden(subject, id) {
      const rows = await pgRead(ctx, 'read what was removed from the library', 'SELECT 1 FROM hidden_subjects WHERE subject = $1 AND subject_id = $2', [subject, id]);
      return rows.length > 0;
    },

    async names(subject) {
      const rows = await pgRead<{ id: number; name: string }>(
        ctx,
        'read the names given in the library',
        `SELECT DISTINCT ON (subject_id) subject_id AS id, value AS name FROM library_changes
         WHERE subject = $1 AND action = 'rename' ORDER BY subject_id, id DESC`,
        [subject],
      );
      return new Map(rows.map((r) => [Number(r.id), r.name]));
    },

    answersWithRaw: (raw) =>
      pgRead<ImportedAnswerRow>(
        ctx,
        'look for an earlier import of this answer',
        `SELECT a.id, a.origin, a.question, a.created_at FROM answers a
         WHERE a.raw = $1 AND a.id NOT IN (SELECT subject_id FROM hidden_subjects WHERE subject = 'answer')
         ORDER BY a.id DESC`,
        [raw],
      ),
  };
}
