import type { SourcesStore } from '../electron/services/store/sources-store.ts';
import { rng } from '../test/support/random.ts';

/** A quote copied from a stored passage, with where it is. */
export interface PassageQuote {
  sourceId: number;
  page: number | null;
  line: number | null;
  text: string;
}

/** Quotes of 60–140 characters at word boundaries, copied from passages over 240 characters, sampled alike by the team bench and the cite profilers (one seed, one list). */
export function passageQuotes(sources: SourcesStore, n: number, seed: number): PassageQuote[] {
  const r = rng(seed);
  const passages = sources.list().flatMap((src) => sources.segments(src.id).filter((g) => g.text.trim().length > 240));
  const found: PassageQuote[] = [];
  for (let guard = 0; found.length < n && guard < n * 30 && passages.length > 0; guard++) {
    const p = passages[Math.floor(r() * passages.length)];
    if (!p) continue;
    const from = p.text.indexOf(' ', Math.floor(r() * (p.text.length - 160))) + 1;
    const to = p.text.lastIndexOf(' ', from + 60 + Math.floor(r() * 80));
    const text = p.text.slice(from, to).trim();
    if (from > 0 && text.length >= 50 && /[a-z]{4}/i.test(text)) found.push({ sourceId: p.source_id, page: p.page, line: p.line_start, text });
  }
  return found;
}
