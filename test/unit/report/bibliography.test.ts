import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cslName, renderBibliography } from '../../../electron/services/export/bibliography.ts';
import { fixtureReport } from './report-fixture.ts';

/** A small structural BibTeX reader: entries, keys and fields, with braces balanced. */
function bibtexEntries(text: string): { type: string; key: string; fields: Record<string, string> }[] {
  const out: { type: string; key: string; fields: Record<string, string> }[] = [];
  const re = /@(\w+)\{([^,\s]+),/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    let depth = 1;
    let i = re.lastIndex;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
    }
    if (depth !== 0) throw new Error(`entry ${m[2]} has unbalanced braces`);
    const body = text.slice(re.lastIndex, i - 1);
    const fields: Record<string, string> = {};
    for (const f of body.matchAll(/(\w+)\s*=\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}/g)) fields[f[1] ?? ''] = f[2] ?? '';
    out.push({ type: m[1] ?? '', key: m[2] ?? '', fields });
    re.lastIndex = i;
  }
  return out;
}

describe('bibliography of the report sources', () => {
  const report = fixtureReport();
  let savedFetch: typeof fetch;
  // Offline by construction: any network use during formatting fails the test.
  beforeEach(() => {
    savedFetch = globalThis.fetch;
    globalThis.fetch = (() => {
      throw new Error('network used');
    }) as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = savedFetch;
  });

  it('writes BibTeX that parses back, keyed by the report source ids', async () => {
    const bib = await renderBibliography(report, 'bibtex');
    const entries = bibtexEntries(bib);
    expect(entries.map((e) => e.key)).toEqual(['S1', 'S2', 'S3']);
    expect(entries[0]?.fields.author).toBe('Smith, Jane and Doe, John');
    expect(entries[0]?.fields.year).toBe('2024');
    expect(entries[1]?.fields.author).toBe('{Acme Corporation Ltd}');
    const back = new Cite(bib).data as { id: string; title: string }[];
    expect(back.map((d) => [d.id, d.title])).toEqual([
      ['S1', 'Leave Policy 2024'],
      ['S2', 'handbook.docx'],
      ['S3', 'Meeting notes'],
    ]);
  });

  it('formats APA, Harvard and IEEE with the bundled and own styles', async () => {
    const apa = await renderBibliography(report, 'apa');
    expect(apa).toContain('Smith, J., & Doe, J. (2024, March 1). Leave Policy 2024.');
    expect(apa).toContain('Acme Corporation Ltd. (2023). handbook.docx.');
    expect(apa).toContain('Meeting notes. (n.d.).');
    const harvard = await renderBibliography(report, 'harvard');
    expect(harvard).toContain('Smith, J. and Doe, J. (2024) “Leave Policy 2024.”');
    const ieee = (await renderBibliography(report, 'ieee')).trim().split('\n');
    expect(ieee).toEqual(['[1] J. Smith and J. Doe, “Leave Policy 2024,” Mar. 1, 2024.', '[2] Acme Corporation Ltd, “handbook.docx,” 2023.', '[3] “Meeting notes,” n.d.']);
    const html = await renderBibliography(report, 'ieee', 'html');
    expect(html).toContain('data-csl-entry-id="S1"');
    // citeproc compiles APA's long style once per process (seconds on a loaded machine): not a hang.
  }, 60_000);

  it('reads authors as people or organisations', async () => {
    expect(cslName('Jane Smith')).toEqual({ family: 'Smith', given: 'Jane' });
    expect(cslName('Doe, John')).toEqual({ family: 'Doe', given: 'John' });
    expect(cslName('Ministry of Health')).toEqual({ literal: 'Ministry of Health' });
    expect(cslName('admin')).toEqual({ literal: 'admin' });
    expect(await renderBibliography({ sources: [] }, 'apa')).toBe('');
  });
});
