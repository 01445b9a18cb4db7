import { MAX_PAGE_ROWS } from '../../shared/contract/list-schemas.ts';
import { flagString, type CommandContext } from './command.ts';

/** --limit of a paged list: undefined when not given, null (said why on stderr) when not a page size. */
export function limitFlag(ctx: CommandContext, command: string): number | undefined | null {
  const text = flagString(ctx, 'limit');
  const limit = text === undefined ? undefined : Number(text);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= MAX_PAGE_ROWS)) {
    ctx.io.err(`evidesk ${command}: --limit takes a whole number from 1 to ${MAX_PAGE_ROWS}, not "${text}".`);
    return null;
  }
  return limit;
}
