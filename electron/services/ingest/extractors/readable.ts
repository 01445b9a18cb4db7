// A web page's article, as a reader view shows it (issue 11): Mozilla's Readability over a linkedom
// document drops navigation, adverts and footers, so blocks and citations are about the page's
// content. Deterministic for the same bytes and versions, so the viewer re-derives the same blocks.
import { createRequire } from 'node:module';
import { packageVersion } from './package-version.ts';

type ReaderLibs = { Readability: typeof import('@mozilla/readability').Readability; parseHTML: typeof import('linkedom').parseHTML };
let libs: ReaderLibs | null = null;

/**
 * Loaded on first use: linkedom takes a second or more to import on a busy machine, and every
 * extraction child would pay it at start, though only web pages need it.
 */
function readerLibs(): ReaderLibs {
  if (!libs) {
    const require = createRequire(import.meta.url);
    const { Readability } = require('@mozilla/readability') as typeof import('@mozilla/readability');
    const { parseHTML } = require('linkedom') as typeof import('linkedom');
    libs = { Readability, parseHTML };
  }
  return libs;
}

export const READER_METHOD = `readability@${packageVersion('@mozilla/readability')}+linkedom@${packageVersion('linkedom')}`;

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The article of a page as a small HTML document, or null when Readability finds none (then the whole page is used). */
export function readerHtml(html: string): { html: string; title: string | null } | null {
  const { Readability, parseHTML } = readerLibs();
  const { document } = parseHTML(html);
  // Readability reads scripts and styles as noise only; keep them out of its way entirely.
  const article = new Readability(document as unknown as Document, { keepClasses: false }).parse();
  if (!article?.content || !article.textContent?.trim()) return null;
  const title = article.title?.trim() || null;
  return {
    html: `<html><head><title>${escapeText(title ?? '')}</title></head><body>${article.content}</body></html>`,
    title,
  };
}
