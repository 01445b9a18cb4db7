/**
 * Evidence excerpts for a report's citations (issue 9): for a quote placed on a PDF page, the
 * rendered band of that page with the quote boxed (pdf-excerpt.ts); for one placed in a block or
 * lines (DOCX, HTML, text, Markdown), that text with the quote marked (text-excerpt.ts). A quote that runs over a page
 * break gets its first page's part. Each excerpt has a time limit; one that fails or runs out of
 * time is left out with a note, and the export goes on.
 *
 * This runs in the export service's own process, one excerpt at a time: the extraction pool's
 * workers are not used for it yet.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import type { SourceInput } from '../../../shared/report/build.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import { openPdfExcerpts, type PdfExcerptResult, type PdfExcerpts } from './pdf-excerpt.ts';
import { textExcerpt } from './text-excerpt.ts';

/** Per excerpt; a page that takes longer than this to render is left out with a note. */
export const EXCERPT_TIME_LIMIT_MS = 20_000;

export interface ExcerptDeps {
  sources: SourcesStore;
  workspaceDir: string;
  sourceInputs: readonly SourceInput[];
}

/** The bytes the workspace verified: the file when its health is ok, else the snapshot. */
function sourceBytes(src: SourceInput, deps: ExcerptDeps): Uint8Array | null {
  if (src.health === 'ok' && src.path && fs.existsSync(src.path)) return fs.readFileSync(src.path);
  const row = deps.sources.get(src.id);
  if (!row?.snapshot) return null;
  const root = path.resolve(deps.workspaceDir);
  const blob = path.resolve(root, row.snapshot);
  if (!blob.startsWith(root + path.sep) || !fs.existsSync(blob)) return null;
  return fs.readFileSync(blob);
}

function withTimeLimit(work: Promise<PdfExcerptResult>, ms: number, what: string): Promise<PdfExcerptResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<PdfExcerptResult>((resolve) => {
    timer = setTimeout(() => resolve({ note: `The excerpt is left out: rendering ${what} took longer than ${ms / 1000} s.` }), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Excerpts (or notes saying why there is none) by citation id; citations without a PDF place get nothing. */
export async function excerptsFor(citations: readonly CitationDetail[], deps: ExcerptDeps): Promise<Map<number, PdfExcerptResult>> {
  const out = new Map<number, PdfExcerptResult>();
  const byId = new Map(deps.sourceInputs.map((s) => [s.id, s]));
  // Each PDF opened once (and each page rendered once) for all its citations.
  const opened = new Map<number, Promise<PdfExcerpts | null>>();
  // In page order, not answer order: an answer cycling through pages would otherwise render each
  // page again for every citation once it has left the few kept in memory.
  const pageKey = (c: CitationDetail): [number, number] => [c.result?.sourceId ?? -1, c.result?.place?.at ?? 0];
  const ordered = [...citations].sort((a, b) => {
    const [sa, pa] = pageKey(a);
    const [sb, pb] = pageKey(b);
    return sa - sb || pa - pb;
  });
  try {
    for (const c of ordered) {
      const r = c.result;
      const place = r?.place;
      if (!r || !place || r.sourceId === null) continue;
      const src = byId.get(r.sourceId);
      if (!src) continue;
      if (place.unit !== 'page') {
        const excerpt = textExcerpt(place, deps.sources.segments(src.id));
        if (excerpt) out.set(c.id, { excerpt });
        continue;
      }
      if (src.kind !== 'pdf') continue;
      if (!opened.has(src.id)) {
        const bytes = sourceBytes(src, deps);
        opened.set(src.id, bytes ? openPdfExcerpts(bytes) : Promise.resolve(null));
      }
      const what = `page ${place.at} of ${src.fileName}`;
      const failed = (e: unknown): PdfExcerptResult => ({ note: `The excerpt is left out: ${what} could not be rendered (${e instanceof Error ? e.message : String(e)}).` });
      const pdf = await opened.get(src.id)?.catch(() => null);
      if (!pdf) {
        out.set(c.id, { note: `The excerpt is left out: neither ${src.fileName} nor a snapshot of it could be opened to render.` });
        continue;
      }
      const seg = deps.sources.pageSegment(src.id, place.at);
      if (!seg) continue;
      // A quote over a page break: its first page's part.
      const end = place.endAt === place.at ? place.end : (place.firstEnd ?? seg.text.length);
      // A scan read by OCR is boxed from its word boxes (pdf.js reads no text there).
      const ocr = seg.ocr_boxes && seg.item_starts ? { ocr: { itemStarts: JSON.parse(seg.item_starts) as number[], boxes: JSON.parse(seg.ocr_boxes) as [number, number, number, number][] } } : {};
      const work = pdf.excerpt({ page: place.at, pageLabel: seg.page_label, pageText: seg.text, start: place.start, end, ...ocr }).catch(failed);
      out.set(c.id, await withTimeLimit(work, EXCERPT_TIME_LIMIT_MS, what));
    }
  } finally {
    for (const p of opened.values()) await p.then((pdf) => pdf?.close()).catch(() => undefined);
  }
  return out;
}
