/**
 * What a failed citation is told to do next: the passage of the source closest to its quote (with
 * a locator), or the sources its words or its source name could mean. Reads only.
 */
import { candidateTerms } from '../../../shared/anchoring/index.ts';
import type { CandidateSource, ClosestPassage, PassageLocator } from '../../../shared/contract/citation-schemas.ts';
import { splitSentences } from '../../../shared/imports/sentences.ts';
import { keyTerms } from '../../../shared/verification/index.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SegmentRow } from '../store/sources-store.ts';
import { lineOf } from '../verification/anchor-segment.ts';
import { nameWords } from '../verification/source-names.ts';

/** The locator of [start, end) in a stored segment. */
export function passageLocator(seg: Pick<SegmentRow, 'page' | 'page_label' | 'paragraph' | 'line_start' | 'text'>, start: number, end: number): PassageLocator {
  return {
    page: seg.page,
    page_label: seg.page_label,
    paragraph: seg.paragraph,
    line: seg.line_start !== null ? lineOf({ lineStart: seg.line_start, text: seg.text }, start) : null,
    start,
    end,
  };
}

/** Any of the text's distinctive terms, as an FTS5 query. */
function anyTerms(text: string): string | null {
  const terms = candidateTerms(text, 10).filter((t) => !t.includes('"'));
  return terms.length === 0 ? null : terms.map((t) => `"${t}"`).join(' OR ');
}

interface Scored {
  row: SegmentRow;
  start: number;
  end: number;
  score: number;
}

/** The sentence (or run of two) of the rows sharing most key terms with `text`. */
function bestSentence(rows: readonly SegmentRow[], text: string): Scored | null {
  const wanted = new Set(keyTerms(text));
  if (wanted.size === 0) return null;
  let best: Scored | null = null;
  for (const row of rows) {
    const sentences = splitSentences(row.text);
    for (let i = 0; i < sentences.length; i++) {
      const s = sentences[i];
      if (!s) continue;
      // A quote may be longer than one sentence: try it with the next one too.
      for (const end of [s.end, sentences[i + 1]?.end ?? s.end]) {
        const words = new Set(keyTerms(row.text.slice(s.start, end)));
        let hit = 0;
        for (const w of wanted) if (words.has(w)) hit++;
        const score = hit / wanted.size - (end > s.end ? 0.01 : 0);
        if (!best || score > best.score) best = { row, start: s.start, end, score };
      }
    }
  }
  return best && best.score >= 0.25 ? best : null;
}

export class CiteHints {
  private readonly anchoring: AnchoringStore;
  private readonly search: SearchStore;
  constructor(anchoring: AnchoringStore, search: SearchStore) {
    this.anchoring = anchoring;
    this.search = search;
  }

  private passage(source: SourceRefRow, hit: Scored): ClosestPassage {
    const restricted = source.restricted === 1;
    return {
      source_id: source.id,
      file_name: source.file_name,
      locator: passageLocator(hit.row, hit.start, hit.end),
      text: restricted ? null : hit.row.text.slice(hit.start, hit.end).replace(/\s+/g, ' ').trim(),
    };
  }

  /** The passage of one source closest to a quote (or claim), or null when none shares enough words. */
  closestIn(source: SourceRefRow, text: string): ClosestPassage | null {
    const match = anyTerms(text);
    if (match === null) return null;
    let rows: SegmentRow[] = [];
    try {
      rows = this.search.candidateSegments(match, source.id, 8);
    } catch {
      return null;
    }
    const best = bestSentence(rows, text);
    return best ? this.passage(source, best) : null;
  }

  /** The best passage anywhere in the workspace but `exceptId`: a quote cited from the wrong source. */
  closestElsewhere(text: string, exceptId: number | null): { passage: ClosestPassage; source: SourceRefRow } | null {
    const match = anyTerms(text);
    if (match === null) return null;
    let hits: { segment_id: number }[] = [];
    try {
      hits = this.search.search(match, { limit: 12, snippets: false });
    } catch {
      return null;
    }
    const rows = hits.map((h) => this.anchoring.segment(h.segment_id)).filter((r): r is SegmentRow => r !== undefined && r.source_id !== exceptId);
    const best = bestSentence(rows, text);
    if (!best || best.score < 0.6) return null;
    const source = this.anchoring.source(best.row.source_id);
    return source ? { passage: this.passage(source, best), source } : null;
  }

  /** Sources a name could mean: shared name words first, else (few sources) all of them. */
  candidatesForName(name: string): CandidateSource[] {
    const words = new Set(nameWords(name).filter((w) => w.length > 1));
    const all = this.anchoring.allSources();
    const scored = all
      .map((s) => {
        const theirs = new Set(nameWords(`${s.file_name} ${s.title ?? ''}`));
        let n = 0;
        for (const w of words) if (theirs.has(w)) n++;
        return { s, n };
      })
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n || b.s.id - a.s.id)
      .slice(0, 5);
    const pick = scored.length > 0 ? scored.map((x) => ({ s: x.s, why: `its name shares ${x.n} word${x.n === 1 ? '' : 's'} with "${name}"` })) : all.length <= 10 ? all.map((s) => ({ s, why: 'a source of this workspace' })) : [];
    return pick.map(({ s, why }) => ({ source_id: s.id, identifier: s.file_name, title: s.title, why }));
  }
}
