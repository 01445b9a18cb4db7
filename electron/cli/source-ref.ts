import { AppError } from '../../shared/contract/errors.ts';
import type { SourceSummary } from '../../shared/contract/schemas.ts';

/**
 * SOURCE as a person types it: an id, a SHA-256 prefix (4+ hex digits), or a file name. An
 * ambiguous name is refused with the candidates, never guessed.
 */
export function resolveSource(list: readonly SourceSummary[], ref: string): SourceSummary {
  if (/^\d+$/.test(ref)) {
    const byId = list.find((s) => s.id === Number(ref));
    if (byId) return byId;
  }
  const candidates: SourceSummary[][] = [];
  if (/^[0-9a-f]{4,64}$/i.test(ref)) candidates.push(list.filter((s) => s.sha256.startsWith(ref.toLowerCase())));
  candidates.push(list.filter((s) => s.fileName === ref));
  candidates.push(list.filter((s) => s.fileName.toLowerCase() === ref.toLowerCase()));
  for (const found of candidates) {
    const [only, second] = found;
    if (only && !second) return only;
    if (only) {
      const names = found.map((s) => `  ${s.id}  ${s.fileName}  ${s.sha256.slice(0, 12)}  ${s.path ?? ''}`).join('\n');
      throw new AppError('INVALID_INPUT', `"${ref}" names ${found.length} sources; give the id or a longer SHA-256 prefix instead:\n${names}`);
    }
  }
  throw new AppError('SOURCE_NOT_FOUND', `No source matches "${ref}" (by id, SHA-256 prefix or file name). List them with \`evidesk sources\`.`);
}
