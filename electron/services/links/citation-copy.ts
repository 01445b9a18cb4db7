/**
 * Copy citation (issue 17): one citation in the chosen style, as plain text and as HTML (a
 * clickable link in mail and word processors), with its citation link. APA, Harvard, IEEE and
 * BibTeX come from the reports' bibliography formatter (citation-js), so a copied citation and an
 * exported bibliography never disagree; "inline" is the quote, the source and the place.
 */
import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import type { CitationStyle, CopiedCitation } from '../../../shared/contract/link-schemas.ts';
import { formatCitationLink, linkForPlace } from '../../../shared/links/citation-link.ts';
import { escapeHtml } from '../../../shared/report/html.ts';
import type { ReportSource } from '../../../shared/report/schema.ts';
import { renderBibliography } from '../export/bibliography.ts';
import type { SourceRow } from '../store/sources-store.ts';
import { placeWords } from './link-resolver.ts';

/** The citation's link: where its quote was found, in the version it was found in. */
export function citationLinkOf(c: CitationDetail, answerId: number, matched: Pick<SourceRow, 'sha256'> | undefined): string | null {
  const place = c.result?.place;
  const quote = c.result?.matchedText ?? c.quote;
  if (!place || !matched || !quote) return null;
  const link = linkForPlace({ sha256: matched.sha256, ...place }, quote, { answer: answerId, marker: c.marker });
  return link ? formatCitationLink(link) : null;
}

function asReportSource(row: SourceRow): ReportSource {
  return {
    id: 'S1',
    title: row.title,
    fileName: row.file_name,
    path: row.current_path,
    sha256: row.sha256,
    size: row.byte_size,
    kind: row.kind,
    health: 'unchecked',
    snapshot: row.snapshot !== null,
    authors: [],
    date: null,
  };
}

export async function copyCitation(c: CitationDetail, style: CitationStyle, source: SourceRow | undefined, link: string | null): Promise<CopiedCitation> {
  const place = c.result?.place ? placeWords(c.result.place, c.result.pageLabel) : null;
  const name = source ? (source.title ?? source.file_name) : (c.unknownSource ?? 'unknown source');
  const quote = c.quote ? `“${c.quote.replace(/\s+/g, ' ').trim()}”` : null;
  const linkText = link ? ` ${link}` : '';
  const linkHtml = link ? ` <a href="${escapeHtml(link)}">Open in Evidence Desk</a>` : '';
  if (style === 'inline' || !source) {
    const words = [quote, `(${name}${place ? `, ${place}` : ''})`].filter(Boolean).join(' ');
    return { text: `${words}${linkText}`, html: `<p>${escapeHtml(words)}${linkHtml}</p>`, link };
  }
  const report = { sources: [asReportSource(source)] };
  const entry = (await renderBibliography(report, style, 'text')).trim();
  if (style === 'bibtex') {
    const withLink = link ? entry.replace(/,?\s*\}\s*$/, `,\n\turl = {${link}},\n}`) : entry;
    return { text: withLink, html: `<pre>${escapeHtml(withLink)}</pre>`, link };
  }
  const html = (await renderBibliography(report, style, 'html')).trim();
  const where = place ? ` ${place}.` : '';
  return { text: `${entry}${where}${linkText}`, html: `${html.replace(/<\/div>\s*<\/div>\s*$/, `${escapeHtml(where)}${linkHtml}</div></div>`)}`, link };
}
