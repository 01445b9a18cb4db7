/**
 * The bibliography of a report's sources in APA, Harvard, IEEE or BibTeX, formatted by citation-js
 * (citeproc-js underneath) from the metadata each source has: title (else the file name), authors
 * and date from the document's properties where present. Works offline: the APA (7th edition) and
 * Harvard (Cite Them Right 12th edition, citation-js's `harvard1`) styles and the en-US locale come
 * bundled with @citation-js/plugin-csl (CSL styles, CC BY-SA 3.0, by the Citation Style Language
 * project); IEEE is the project's own small style (ieee-style.ts). Entries keep the report's source
 * ids: BibTeX keys are S1, S2, …
 */
// citation-js (~14 MB loaded) is imported on the first bibliography, not with this module: the
// command line and the app bundle it, and every other command (an ingest above all) would carry it.
import type { Cite as CiteClass } from '@citation-js/core';
import type { Report, ReportSource } from '../../../shared/report/schema.ts';
import { IEEE_STYLE_ID, IEEE_STYLE_XML } from './ieee-style.ts';

export const BIBLIOGRAPHY_STYLES = ['apa', 'harvard', 'ieee', 'bibtex'] as const;
export type BibliographyStyle = (typeof BIBLIOGRAPHY_STYLES)[number];

const CSL_TEMPLATE: Record<Exclude<BibliographyStyle, 'bibtex'>, string> = { apa: 'apa', harvard: 'harvard1', ieee: IEEE_STYLE_ID };

let loaded: Promise<typeof CiteClass> | null = null;
/** citation-js with its BibTeX and CSL plugins and the IEEE style registered, loaded once. */
function citationJs(): Promise<typeof CiteClass> {
  loaded ??= (async () => {
    const { Cite, plugins } = await import('@citation-js/core');
    // The plugins register themselves with the core when loaded.
    await Promise.all([import('@citation-js/plugin-bibtex'), import('@citation-js/plugin-csl')]);
    const csl = plugins.config.get('@csl') as { styles: { has(id: string): boolean; add(id: string, xml: string): void } };
    if (!csl.styles.has(IEEE_STYLE_ID)) csl.styles.add(IEEE_STYLE_ID, IEEE_STYLE_XML);
    return Cite;
  })();
  return loaded;
}

// Words that mark an organisation, whose name is kept whole rather than read as "Given Family".
const ORGANISATION = /\b(?:inc|ltd|llc|plc|gmbh|corp(?:oration)?|company|co|group|department|ministry|agency|office|university|institute|council|committee|board|association|authority|commission|bank|bureau|foundation|government|trust|society|services|team)\b\.?/i;

/** An author as CSL reads it: "Smith, Jane" and "Jane Smith" are persons; organisations stay whole. */
export function cslName(author: string): { family: string; given?: string } | { literal: string } {
  const name = author.replace(/\s+/g, ' ').trim();
  const comma = /^([^,]+),\s*([^,]+)$/.exec(name);
  if (comma && !ORGANISATION.test(name)) return { family: (comma[1] ?? '').trim(), given: (comma[2] ?? '').trim() };
  const words = name.split(' ');
  if (words.length >= 2 && words.length <= 4 && !ORGANISATION.test(name) && words.every((w) => /^\p{Lu}/u.test(w))) {
    return { family: words[words.length - 1] ?? name, given: words.slice(0, -1).join(' ') };
  }
  return { literal: name };
}

/** A source as CSL-JSON. */
export function cslItem(s: ReportSource): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: s.id,
    'citation-key': s.id,
    type: 'document',
    title: s.title ?? s.fileName,
  };
  if (s.authors.length > 0) item.author = s.authors.map(cslName);
  if (s.date) item.issued = { 'date-parts': [s.date.split('-').map((p) => Number(p))] };
  return item;
}

/**
 * The bibliography of the report's sources, in S1, S2… order where the style numbers entries (IEEE),
 * alphabetical where it sorts them (APA, Harvard). `format` is text or HTML (ignored for BibTeX).
 * No sources: an empty string.
 */
export async function renderBibliography(report: Pick<Report, 'sources'>, style: BibliographyStyle, format: 'text' | 'html' = 'text'): Promise<string> {
  if (report.sources.length === 0) return '';
  const Cite = await citationJs();
  const cite = new Cite(report.sources.map(cslItem));
  if (style === 'bibtex') return cite.format('bibtex', { format: 'text' }) as string;
  return cite.format('bibliography', { format, template: CSL_TEMPLATE[style], lang: 'en-US' }) as string;
}
