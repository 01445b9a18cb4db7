// Web sources in words (issue 11): where and when a page was archived, and what a registration did.
import type { WebOutcome } from '../contract/web-schemas.ts';

export interface ArchivedFrom {
  url: string;
  finalUrl: string;
  fetchedAt: string;
}

/** "2026-11-24 at 14:30 UTC": the same words in every time zone, as the fetch record has it. */
export function fetchTimeText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const t = d.toISOString();
  return `${t.slice(0, 10)} at ${t.slice(11, 16)} UTC`;
}

/** "Archived from https://… on 2026-11-24 at 14:30 UTC" (and where a redirect led, when it did). */
export function archivedFromText(a: ArchivedFrom): string {
  const via = a.finalUrl !== a.url ? ` (redirected to ${a.finalUrl})` : '';
  return `Archived from ${a.url}${via} on ${fetchTimeText(a.fetchedAt)}`;
}

/** What registering a URL did, as a sentence for the library. */
export function webOutcomeText(outcome: WebOutcome, name: string, fetchedAt: string): string {
  const when = fetchTimeText(fetchedAt);
  switch (outcome) {
    case 'added':
      return `Archived ${name} on ${when}.`;
    case 'new_version':
      return `${name} has changed: archived as a new version on ${when}; citations of the earlier version still check against it.`;
    case 'unchanged':
      return `${name} is unchanged since it was last archived (checked ${when}).`;
    case 'duplicate':
      return `${name} holds the same bytes as a source already in the workspace; that source is used (checked ${when}).`;
  }
}
