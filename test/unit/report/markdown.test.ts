import { describe, expect, it } from 'vitest';
import { parseCitationLink } from '../../../shared/links/citation-link.ts';
import { renderMarkdown, mdInline } from '../../../shared/report/markdown.ts';
import { DECISION_WORDS, HEALTH_WORDS, STATUS_WORDS, asSentence } from '../../../shared/report/words.ts';
import { fixtureReport } from './report-fixture.ts';

/** The text of the section under `## title`, up to the next heading or the footnotes. */
function section(md: string, title: string): string {
  const start = md.indexOf(`\n## ${title}\n`);
  expect(start, `section ${title}`).toBeGreaterThanOrEqual(0);
  const rest = md.slice(start + title.length + 5);
  const end = rest.search(/\n## |\n\[\^\d+\]: /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** Footnote definitions: number → text. */
function definitions(md: string): [number, string][] {
  return [...md.matchAll(/^\[\^(\d+)\]: (.*)$/gm)].map((m) => [Number(m[1]), m[2] ?? '']);
}

/** Footnote references outside definitions, in order of appearance. */
function references(text: string): number[] {
  return [...text.replace(/^\[\^\d+\]: .*$/gm, '').matchAll(/\[\^(\d+)\]/g)].map((m) => Number(m[1]));
}

function firstAppearances(refs: number[]): number[] {
  return refs.filter((n, i) => refs.indexOf(n) === i);
}

describe('renderMarkdown', () => {
  const report = fixtureReport();
  const md = renderMarkdown(report);

  it('ends each placed footnote with its desk link and file link (issue 17)', () => {
    const defs = definitions(md).map(([, text]) => text);
    const desk = defs.flatMap((d) => [...d.matchAll(/\[Open in Evidence Desk\]\(<([^>]+)>\)/g)].map((m) => m[1] ?? ''));
    expect(desk).toHaveLength(report.citations.filter((c) => c.match).length);
    for (const link of desk) expect(parseCitationLink(link).ok).toBe(true);
    expect(defs.some((d) => /\]\(<file:\/\/\/docs\/HR_Policy\.pdf#page=\d+>\)/.test(d))).toBe(true);
    expect(defs.some((d) => d.includes('file moved or deleted.'))).toBe(true);
  });

  it('numbers footnotes contiguously in order of appearance, one definition each, none dropped', () => {
    const answer = section(md, 'Answer');
    const order = firstAppearances(references(answer));
    expect(order).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const defs = definitions(md);
    expect(defs.map(([n]) => n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(defs).toHaveLength(report.citations.length);
    // [3, 2] becomes two adjacent references: citation [3] is met before [2].
    expect(answer).toContain('in writing [^2][^3].');
    // The citation no marker points at still gets its footnote, referenced from the answer section.
    expect(answer).toContain('Citations no marker in the text points at: [^8]');
    // A marker no citation has stays as written, escaped so it is not a link.
    expect(answer).toContain('and \\[12\\].');
  });

  it('gives each footnote its quote, source id, place, status and decision in words', () => {
    const defs = new Map(definitions(md));
    for (const c of report.citations) {
      const entry = [...defs.values()].find((d) => d.includes(`Claim: ${mdInline(asSentence(c.claim))}`));
      expect(entry, `footnote of ${c.id}`).toBeDefined();
      const text = entry ?? '';
      if (c.quote) expect(text).toContain(`“${mdInline(c.quote)}”`);
      else expect(text).toContain('No quote given');
      expect(text).toContain(c.source ?? 'unknown source');
      expect(text).toContain(STATUS_WORDS[c.status]);
      expect(text).toContain(`Decision: ${DECISION_WORDS[c.review.decision]}`);
    }
    expect(defs.get(1)).toContain('p. xii (12)');
    expect(defs.get(1)).toContain('Earlier: Flagged for follow-up by Grace Hopper');
    expect(defs.get(2)).toContain('pp. 14–15');
    expect(defs.get(7)).toContain('lines 10–12');
    expect(defs.get(6)).toContain('decision cleared by Ada Lovelace');
  });

  it('escapes document text so it never becomes markup or raw HTML', () => {
    expect(md).not.toContain('<script>');
    expect(md).toContain('\\<script\\>alert("x \\& y")\\</script\\>');
    expect(md).toContain('\n\\# Not a heading');
    expect(md).toContain('\\<b\\>notice\\</b\\>');
  });

  it('lists unresolved citations under their own heading, also those left out of the report', () => {
    const unresolved = section(md, 'Unresolved citations');
    expect(unresolved).toContain('\\[3\\] Requests must be in writing. [^2] Open because a reviewer flagged it.');
    expect(unresolved).toContain('\\[4\\] Carry-over is limited to 5 days. [^4] Open because the quote was not found');

    const only = renderMarkdown(fixtureReport({ citations: 'accepted' }));
    expect(definitions(only).map(([n]) => n)).toEqual([1, 2]);
    expect(firstAppearances(references(section(only, 'Answer')))).toEqual([1, 2]);
    const left = section(only, 'Unresolved citations');
    expect(left).toContain('\\[3\\] Requests must be in writing. (not in this report)');
    expect(left).toContain('\\[4\\] Carry-over is limited to 5 days. (not in this report)');
    expect(section(only, 'Answer')).toContain('\\[3: not in this report\\]');
  });

  it('has a Sources table with each SHA-256 and health, and the provenance', () => {
    const sources = section(md, 'Sources');
    for (const s of report.sources) {
      const row = sources.split('\n').find((l) => l.startsWith(`| ${s.id} |`));
      expect(row).toContain(`\`${s.sha256}\``);
      expect(row).toContain(HEALTH_WORDS[s.health]);
    }
    const provenance = section(md, 'Provenance');
    expect(provenance).toContain(report.contentHash);
    expect(provenance).toContain(report.provenance.auditHead ?? '');
    expect(provenance).toContain('Verification run: 9');
  });
});
