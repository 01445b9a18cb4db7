/**
 * Rendered PDF excerpts kept in the workspace (cache/excerpts/), so that exporting the same answer
 * again, or in another format (HTML, then PDF), does not draw its pages again: drawing is most of
 * an export's time.
 *
 * Content-addressed: an entry's name is the SHA-256 of everything its image and boxes depend on:
 * the source's bytes (their SHA-256), the page, the stored page text and the quote's characters in
 * it, the OCR word boxes of a scan, pdf.js's version and the excerpt drawing's own parameters
 * (EXCERPT_RENDERING). Anything that would change the excerpt changes the name, so an entry is
 * never stale and nothing needs invalidating; a changed file is a new source with a new hash.
 * Only excerpts are kept, never notes (a page that failed may render next time). An entry that
 * cannot be read or is not a valid excerpt is treated as absent and written again; a cache that
 * cannot be written costs speed, never the export.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ReportImageExcerpt } from '../../../shared/report/schema.ts';
import { PDFJS_VERSION } from '../ingest/pdfjs.ts';
import { EXCERPT_RENDERING, type PdfExcerptAsk } from './pdf-excerpt.ts';

export function excerptCacheDir(workspaceDir: string): string {
  return path.join(workspaceDir, 'cache', 'excerpts');
}

/** The entry name of one excerpt of the source whose bytes hash to `sourceSha256`. */
export function excerptKey(sourceSha256: string, ask: PdfExcerptAsk): string {
  const h = createHash('sha256');
  // Lengths before variable parts, so that no two different inputs join into the same text.
  for (const part of [EXCERPT_RENDERING, `pdfjs ${PDFJS_VERSION}`, sourceSha256, String(ask.page), ask.pageLabel ?? '', String(ask.start), String(ask.end), ask.pageText, ask.ocr ? JSON.stringify(ask.ocr) : '']) {
    h.update(`${part.length}:`);
    h.update(part);
  }
  return h.digest('hex');
}

export class ExcerptCache {
  private readonly dir: string;
  constructor(workspaceDir: string) {
    this.dir = excerptCacheDir(workspaceDir);
  }

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The excerpt kept under `key`, or null. */
  get(key: string): ReportImageExcerpt | null {
    let text: string;
    try {
      text = fs.readFileSync(this.file(key), 'utf8');
    } catch {
      return null;
    }
    try {
      const parsed = ReportImageExcerpt.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Keeps an excerpt; written to a temporary name and renamed, so a reader sees it whole or not at all. */
  put(key: string, excerpt: ReportImageExcerpt): void {
    const target = this.file(key);
    const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(temp, JSON.stringify(excerpt), { mode: 0o600 });
      fs.renameSync(temp, target);
    } catch {
      fs.rmSync(temp, { force: true });
    }
  }
}
