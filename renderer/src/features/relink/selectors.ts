import type { FolderSearchResult, Health, RelinkManyResult, RelinkSuggestion } from '../../../../shared/contract/schemas.ts';

export interface HealthLabel {
  icon: string;
  text: string;
  /** For styling only: the icon and text carry the meaning (never colour alone). */
  tone: 'ok' | 'warn' | 'bad' | 'muted';
}

const LABELS: Record<Health, HealthLabel> = {
  ok: { icon: '✓', text: 'ok', tone: 'ok' },
  modified: { icon: '✎', text: 'modified', tone: 'warn' },
  missing: { icon: '✖', text: 'missing', tone: 'bad' },
  unchecked: { icon: '?', text: 'not checked', tone: 'muted' },
};

export function healthLabel(health: Health): HealthLabel {
  return LABELS[health];
}

/** A source the analyst may want to relink: its file is gone or no longer holds its bytes. */
export function needsRelink(health: Health): boolean {
  return health === 'missing' || health === 'modified';
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The library's health at a glance, from the sources' last known health (it follows relinks too). */
export function healthSummary(healths: readonly Health[]): string {
  const counts = { ok: 0, modified: 0, missing: 0, unchecked: 0 };
  for (const h of healths) counts[h] += 1;
  return healthCountsSummary(counts);
}

/** The same sentence from counts (the library's summary counts them in SQL and the health service). */
export function healthCountsSummary(counts: Readonly<Record<Health, number>>): string {
  const count = (h: Health) => counts[h];
  const checked = count('ok') + count('modified') + count('missing');
  if (checked === 0) return '';
  const parts = [`${count('ok')} ok`];
  if (count('modified')) parts.push(`${count('modified')} modified`);
  if (count('missing')) parts.push(`${count('missing')} missing`);
  if (count('unchecked')) parts.push(`${count('unchecked')} not checked`);
  return `Checked ${plural(checked, 'file')}: ${parts.join(', ')}.`;
}

/** What the relink dialog says about the file before anything is done. */
export function explainHealth(health: Health): string {
  if (health === 'missing') return 'The file is no longer at this path. Give its new location, or search a folder for it.';
  if (health === 'modified') return 'The file at this path has changed since it was ingested. Give the location of the original, or search a folder for it.';
  return 'Give the file’s new location, or search a folder for it.';
}

export function citationsText(n: number): string {
  return n === 0 ? 'No citations depend on it.' : `${plural(n, 'citation')} ${n === 1 ? 'depends' : 'depend'} on it.`;
}

export function searchSummary(result: FolderSearchResult): string {
  const matches = result.results.reduce((n, r) => n + r.matches.length, 0);
  const looked = `Looked at ${plural(result.examined, 'file')} under ${result.dir}${result.truncated ? ' (stopped at the search limit: try a narrower folder)' : ''}`;
  if (matches === 0) return `${looked}; none has the same bytes.`;
  return `${looked}; ${plural(matches, 'file')} with the same bytes:`;
}

/** The folder the suggestions were found in, for the heading over them. */
export function suggestionsFolder(suggestions: readonly RelinkSuggestion[], relinkedPath: string): string {
  const dirOf = (p: string) => p.replace(/[\\/][^\\/]*$/, '');
  const dirs = suggestions.map((s) => dirOf(s.path));
  let common = dirOf(relinkedPath);
  // The deepest folder holding the relinked file and every suggestion.
  while (common && !dirs.every((d) => d === common || d.startsWith(`${common}/`) || d.startsWith(`${common}\\`))) common = dirOf(common);
  return common || dirOf(relinkedPath);
}

export function relinkManySummary(result: RelinkManyResult, noun = 'more source'): string {
  const ok = result.results.filter((r) => r.ok).length;
  const failed = result.results.length - ok;
  return failed === 0 ? `✓ Relinked ${plural(ok, noun)}.` : `Relinked ${ok} of ${result.results.length}; ${failed} could not be relinked:`;
}
