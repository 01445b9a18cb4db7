import type { CheckSourceRow, CurrentPathRow } from '../store/evidence-store.ts';
import type { CheckedHealth, SourceHealth } from './health-types.ts';

/** What a check found at one recorded path of a source. */
export interface PathVerdict {
  row: CurrentPathRow;
  health: CheckedHealth;
  detail: string;
}

/** Why a path cannot be read, in the words of a health detail. */
export function fsProblem(code: string): string {
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no longer exists';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be reached (permission denied)';
  return `cannot be reached (${code})`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One source from its paths' verdicts: ok when any path is ok, else modified, else missing. */
export function judgeSource(src: CheckSourceRow, verdicts: PathVerdict[], citations: number): SourceHealth {
  const base = { id: src.id, fileName: src.file_name, citations };
  // Keep the store's order (newest path first) whatever order the hash pass finished in.
  const ordered = [...verdicts].sort((a, b) => (b.row.last_seen_at.localeCompare(a.row.last_seen_at)) || b.row.id - a.row.id);
  const primary = ordered[0];
  if (!primary && src.web === 1) {
    return { ...base, path: null, health: 'ok', detail: 'An archived web page: the workspace keeps the copy that was fetched, and citations are checked against it.' };
  }
  if (!primary) {
    return { ...base, path: null, health: 'missing', detail: 'No current path is recorded for this source. Relink it to its file.' };
  }
  const ok = ordered.find((v) => v.health === 'ok');
  if (ok) {
    const others = ordered.filter((v) => v.health !== 'ok').length;
    const detail = others > 0 ? `${ok.detail}; ${plural(others, 'other recorded path')} no longer hold the file` : ok.detail;
    return { ...base, path: ok.row.path, health: 'ok', detail };
  }
  const modified = ordered.find((v) => v.health === 'modified');
  if (modified) {
    return {
      ...base,
      path: modified.row.path,
      health: 'modified',
      detail: `${modified.detail}. Ingest it as a new version, or relink the source to a copy of the original.`,
    };
  }
  return { ...base, path: primary.row.path, health: 'missing', detail: `${primary.detail}. Relink it to where the file is now, or search a folder for it.` };
}
