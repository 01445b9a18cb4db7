/**
 * Library changes on PostgreSQL (issue 13): an answer renamed, an answer or a source removed from
 * view and shown again, each an appended library_changes row (migration 4) with its audit entry
 * as SQLite's LibraryChangesStore records it, in one transaction. Row-level security decides who
 * may: an admin any change, a reviewer an answer's in its projects; a source's changes are the
 * pool's (every member reads them), an answer's its project's.
 */
import { AppError } from '../../../../shared/contract/errors.ts';
import type { ImportedAnswerRow, LibraryArea } from '../evidence-store.ts';
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

/** A source's removal is the pool's business: the refusal says who may. */
function whoMay(e: unknown, subject: Subject, ctx: PgContext): unknown {
  if (subject !== 'source' || !(e instanceof AppError) || e.code !== 'DATABASE_ROLE_REFUSED' || e.details?.sqlstate !== INSUFFICIENT_PRIVILEGE) return e;
  const [head, ...rest] = e.message.split(': ');
  return new AppError('DATABASE_ROLE_REFUSED', `${head}: only an admin removes or restores the shared workspace's sources, and ${rest.join(': ')}`, { ...e.details, role: ctx.who.level });
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
