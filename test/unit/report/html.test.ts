import { parseCitationLink } from '../../../shared/links/citation-link.ts';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderHtml } from '../../../shared/report/html.ts';
import { reportOutline } from '../../../shared/report/outline.ts';
import { fixtureReport, SCRIPT_QUOTE } from './report-fixture.ts';

interface Element {
  name: string;
  attribs: Record<string, string>;
  text: string;
}

/** Every element with its attributes and its text content (entities decoded), as a browser reads them. */
function parse(html: string): { elements: Element[]; styles: string[] } {
  const elements: Element[] = [];
  const open: Element[] = [];
  const styles: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const el = { name, attribs, text: '' };
        elements.push(el);
        open.push(el);
      },
      ontext(text) {
        for (const el of open) el.text += text;
      },
      onclosetag() {
        const el = open.pop();
        if (el?.name === 'style') styles.push(el.text);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { elements, styles };
}

describe('renderHtml', () => {
  const report = fixtureReport();
  const html = renderHtml(report);
  const { elements, styles } = parse(html);

  it('refers to nothing outside the file: no external src, href, url() or @import, no script', () => {
    expect(elements.some((e) => ['script', 'link', 'iframe', 'object', 'embed', 'base', 'form'].includes(e.name))).toBe(false);
    for (const e of elements) {
      for (const [name, value] of Object.entries(e.attribs)) {
        // In-page anchors, and the links a reader follows (issue 17): the desk link and the original file. Neither is a request.
        if (name === 'href' && e.attribs.class === 'desk-link') expect(parseCitationLink(value).ok, value).toBe(true);
        else if (name === 'href' && e.attribs.class === 'file-link') expect(value).toMatch(/^file:\/\/\//);
        else if (name === 'href') expect(value, `<${e.name} href>`).toMatch(/^#[\w-]+$/);
        if (name === 'src') expect(value, `<${e.name} src>`).toMatch(/^data:image\/png;base64,/);
        if (name === 'style') expect(value).not.toMatch(/url\s*\(|@import|https?:/i);
        expect(name).not.toMatch(/^on/);
      }
    }
    const css = [...styles, ...elements.map((e) => e.attribs.style ?? '')].join('\n');
    expect(css.length).toBeGreaterThan(1000);
    expect(css).not.toMatch(/url\s*\(|@import|https?:|\/\//i);
    // The policy forbids every request but inline style and data: images, should anything slip through.
    const csp = elements.find((e) => e.name === 'meta' && e.attribs['http-equiv'] === 'Content-Security-Policy');
    expect(csp?.attribs.content).toContain("default-src 'none'");
  });

  it('gives each placed citation its desk link and file link, and words for a file that is gone (issue 17)', () => {
    const desk = elements.filter((e) => e.attribs.class === 'desk-link').map((e) => e.attribs.href ?? '');
    expect(desk).toHaveLength(report.citations.filter((c) => c.match).length);
    for (const href of desk) expect(parseCitationLink(href)).toMatchObject({ ok: true, link: { answer: report.answer.id } });
    const files = elements.filter((e) => e.attribs.class === 'file-link').map((e) => e.attribs.href ?? '');
    expect(files.some((f) => /^file:\/\/\/docs\/HR_Policy\.pdf#page=\d+$/.test(f))).toBe(true);
    expect(elements.filter((e) => e.attribs.class === 'file-gone').map((e) => e.text)).toContain('file moved or deleted');
  });

  it('shows every quote, escaped: a <script> in a quote is text, not an element', () => {
    const quotes = elements.filter((e) => e.name === 'blockquote').map((e) => e.text);
    for (const c of report.citations) if (c.quote) expect(quotes).toContain(c.quote);
    expect(quotes).toHaveLength(report.citations.filter((c) => c.quote).length);
    expect(html).toContain(escapeHtml(SCRIPT_QUOTE));
    expect(html).toContain('&lt;script&gt;alert(&quot;x &amp; y&quot;)&lt;/script&gt; HR &amp; Payroll&#39;s desk');
    expect(html).not.toContain('<script');
  });

  it('numbers citation links contiguously in order of appearance, each with its card', () => {
    // The answer section: the text's markers, then the citations no marker points at.
    const start = html.indexOf('<section aria-labelledby="h-answer">');
    const answer = parse(html.slice(start, html.indexOf('</section>', start))).elements;
    const inAnswer = answer.filter((e) => e.name === 'a').map((e) => Number(/^#note-(\d+)$/.exec(e.attribs.href ?? '')?.[1]));
    expect(inAnswer.filter((n, i) => inAnswer.indexOf(n) === i)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(answer.filter((e) => e.name === 'sup').map((e) => e.text).join(' ')).toBe('[1] [2] [3] [4] [5] [6] [7] [1]');
    const cards = elements.filter((e) => e.name === 'li' && /\bcitation\b/.test(e.attribs.class ?? ''));
    expect(cards.map((e) => e.attribs.id)).toEqual(report.citations.map((_, i) => `note-${i + 1}`));
    expect(cards.map((e) => e.attribs['data-citation'])).toEqual(['C1', 'C3', 'C2', 'C4', 'C5', 'C6', 'C7', 'C8']);
    expect(new Set(cards.map((e) => e.attribs['data-decision']))).toEqual(new Set(['accepted', 'rejected', 'flagged', 'none']));
  });

  it('draws the evidence excerpt with its boxes, and leaves it out when excerpts are off', () => {
    const img = elements.filter((e) => e.name === 'img');
    expect(img).toHaveLength(1);
    expect(img[0]?.attribs.alt).toBe('p. xii (12) of HR_Policy.pdf, around the quote');
    const boxes = elements.filter((e) => e.attribs.class === 'box');
    expect(boxes.map((b) => b.attribs.style)).toEqual([
      'left:6.667%;top:33.333%;width:66.667%;height:33.333%',
      'left:0.000%;top:66.667%;width:33.333%;height:27.778%',
    ]);
    expect(renderHtml(fixtureReport({ excerpts: false }))).not.toContain('<img');
  });

  it('lists unresolved citations, sources with SHA-256 and health, and the content hash', () => {
    const unresolved = elements.find((e) => e.name === 'ul' && e.attribs.class === 'unresolved');
    expect(unresolved?.text).toContain('[3] (citation 2) Requests must be in writing. Open because a reviewer flagged it.');
    expect(unresolved?.text).toContain('[4] (citation 4) Carry-over is limited to 5 days.');
    const table = elements.find((e) => e.name === 'table')?.text ?? '';
    for (const s of report.sources) expect(table).toContain(s.sha256);
    expect(table).toContain('File missing (no snapshot)');
    expect(html).toContain(report.contentHash);
    const headings = elements.filter((e) => e.name === 'h2').map((e) => e.text);
    expect(headings).toEqual(['Answer', 'Summary', 'Unresolved citations', 'Citations', 'Sources', 'Provenance']);
  });

  it('links every section and citation the PDF outline names, so each is a link target (a named destination when printed)', () => {
    const report = fixtureReport();
    const { elements } = parse(renderHtml(report));
    const ids = new Set(elements.map((e) => e.attribs.id).filter(Boolean));
    const linked = new Set(elements.filter((e) => e.name === 'a' && e.attribs.href?.startsWith('#')).map((e) => e.attribs.href!.slice(1)));
    const [top] = reportOutline(report);
    const targets = top!.children.flatMap((s) => [s.target, ...s.children.map((c) => c.target)]);
    expect(top!.children.map((s) => s.title)).toEqual(elements.filter((e) => e.name === 'h2').map((e) => e.text));
    expect(targets.length).toBe(6 + report.citations.length);
    for (const t of targets) {
      expect(ids).toContain(t);
      expect(linked).toContain(t);
    }
    // Each citation's outline title is its heading.
    const h3 = elements.filter((e) => e.name === 'h3').map((e) => e.text);
    expect(top!.children.find((s) => s.target === 'h-citations')!.children.map((c) => c.title)).toEqual(h3);
  });
});
