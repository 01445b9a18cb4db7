import { AppError } from '../../../shared/contract/errors.ts';
import type { CitationDetail, ReviewData } from '../../../shared/contract/answer-schemas.ts';
import { call, EXIT, flagString, type Command } from '../command.ts';
import { resolveAnswer } from './export.ts';

const ACTIONS = { accept: 'accepted', reject: 'rejected', flag: 'flagged', clear: 'cleared', undo: 'undo' } as const;
type Action = keyof typeof ACTIONS;

const isAction = (s: string | undefined): s is Action => s !== undefined && Object.hasOwn(ACTIONS, s);

/** One row of the trail as a line: "2026-11-24T10:00:00.000Z  accepted by Ann: note". */
export function trailLine(r: ReviewData): string {
  const what = r.undoesId !== null ? `undo → ${r.decision === 'cleared' ? 'no decision' : r.decision}` : r.decision;
  return `${r.createdAt}  ${what}${r.reviewer ? ` by ${r.reviewer}` : ''}${r.note ? `: ${r.note}` : ''}`;
}

function citationOf(detail: { citations: CitationDetail[] }, answerId: number, marker: string): CitationDetail {
  const bare = marker.replace(/^\[|\]$/g, '');
  const found = detail.citations.filter((c) => c.marker === bare);
  if (found.length === 1 && found[0]) return found[0];
  if (found.length === 0) {
    const markers = [...new Set(detail.citations.map((c) => `[${c.marker}]`))].join(', ');
    throw new AppError('CITATION_NOT_FOUND', `Answer ${answerId} has no citation marked [${bare}] (its markers: ${markers || 'none'}).`, { answer: answerId, marker: bare });
  }
  throw new AppError('CITATION_NOT_FOUND', `Answer ${answerId} has ${found.length} citations marked [${bare}]; review them in the app, where each has its own card.`, {
    answer: answerId,
    marker: bare,
    citationIds: found.map((c) => c.id),
  });
}

export const reviewCommand: Command = {
  name: 'review',
  usage:
    'review ANSWER MARKER [accept|reject|flag|clear|undo] [--note TEXT] [--reviewer NAME]\n' +
    '                              record a decision on a citation (a new row in its trail), or list the trail',
  valueFlags: ['note', 'reviewer'],
  run: async (ctx) => {
    const { services, json, io, args } = ctx;
    const [ref, marker, action, ...rest] = args.positionals;
    if (!ref || !marker || rest.length > 0 || (action !== undefined && !isAction(action))) {
      io.err('evidesk review: give an answer (id or imported file name), a citation marker, and accept, reject, flag, clear or undo (none lists the trail).');
      return EXIT.usage;
    }
    const note = flagString(ctx, 'note');
    const reviewer = flagString(ctx, 'reviewer');
    const { id } = await resolveAnswer(services, ref);
    const citation = citationOf(await call(services, 'answers.detail', { id }), id, marker);
    if (action === undefined) {
      if (json) io.out(JSON.stringify({ citationId: citation.id, marker: citation.marker, review: citation.review, history: citation.history }, null, 2));
      else if (citation.history.length === 0) io.out(`[${citation.marker}] has not been reviewed.`);
      else for (const r of citation.history) io.out(trailLine(r));
      return EXIT.ok;
    }
    const who = reviewer !== undefined ? { reviewer } : {};
    const row =
      action === 'undo'
        ? await call(services, 'answers.undoReview', { citationId: citation.id, ...who })
        : await call(services, 'answers.review', { citationId: citation.id, decision: ACTIONS[action], ...(note !== undefined ? { note } : {}), ...who });
    if (json) io.out(JSON.stringify(row, null, 2));
    else io.out(`[${citation.marker}] of answer ${id}: ${trailLine(row)}`);
    return EXIT.ok;
  },
};
