import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { browserLinkUrl, CitationLink, fileLinkFor, fileUrl, formatCitationLink, linkForPlace, MAX_LINK_CHARS, parseCitationLink, quoteFragment } from '../../../shared/links/index.ts';

const SHA = 'a'.repeat(64);
const base = `evidesk://open?sha256=${SHA}&page=3&start=10&end=40&text=annual+leave`;

const arbLink: fc.Arbitrary<CitationLink> = fc
  .record({
    sha256: fc.stringMatching(/^[0-9a-f]{64}$/),
    unit: fc.constantFrom('page', 'block', 'line'),
    at: fc.integer({ min: 1, max: 5000 }),
    extra: fc.integer({ min: 0, max: 3 }),
    start: fc.integer({ min: 0, max: 100_000 }),
    len: fc.integer({ min: 0, max: 5000 }),
    // Any text, including URL specials, quotes, emoji and non-Latin scripts.
    text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
    answer: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
    marker: fc.option(fc.stringMatching(/^[A-Za-z0-9^._-]{1,10}$/), { nil: undefined }),
  })
  .map(({ sha256, unit, at, extra, start, len, text, answer, marker }) => {
    const fragment = quoteFragment(text) ?? 'x';
    const l: Record<string, unknown> = { sha256, [unit]: at, start, end: start + len, text: fragment };
    if (extra > 0) l.to = at + extra;
    if (answer !== undefined) l.answer = answer;
    if (marker !== undefined) l.marker = marker;
    return CitationLink.parse(l);
  });

describe('citation links: parser and formatter', () => {
  it('round-trips every valid link through the formatter and the parser', () => {
    fc.assert(
      fc.property(arbLink, (link) => {
        const text = formatCitationLink(link);
        expect(text.startsWith('evidesk://open?')).toBe(true);
        const back = parseCitationLink(text);
        expect(back).toEqual({ ok: true, link });
        // Formatting is canonical: the same link is the same string.
        if (back.ok) expect(formatCitationLink(back.link)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('reads the browser host form …/#/open?… as the same link', () => {
    fc.assert(
      fc.property(arbLink, fc.integer({ min: 1024, max: 65535 }), (link, port) => {
        const url = browserLinkUrl(link, `http://127.0.0.1:${port}`);
        expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#/open\\?`));
        expect(parseCitationLink(url)).toEqual({ ok: true, link });
        expect(parseCitationLink(new URL(url).hash)).toEqual({ ok: true, link });
      }),
      { numRuns: 100 },
    );
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }).map((s) => `evidesk://open?${s}`), fc.string({ maxLength: 200 }).map((s) => `${base}&${s}`)), (raw) => {
        const r = parseCitationLink(raw);
        if (!r.ok) expect(r.problem.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses every truncation of a valid link that loses a required field or an escape', () => {
    fc.assert(
      fc.property(arbLink, fc.integer({ min: 1, max: 200 }), (link, cut) => {
        const text = formatCitationLink(link);
        const short = text.slice(0, Math.max(0, text.length - cut));
        const r = parseCitationLink(short);
        // A cut either leaves a valid shorter link (a shorter text fragment, marker or number) or is refused: never a crash.
        if (r.ok) expect(r.link.sha256).toBe(link.sha256);
      }),
      { numRuns: 200 },
    );
    expect(parseCitationLink(`evidesk://open?sha256=${SHA}&page=3&start=10`)).toMatchObject({ ok: false, problem: { kind: 'truncated', field: 'end' } });
    expect(parseCitationLink(`evidesk://open?sha256=${SHA.slice(0, 20)}`)).toMatchObject({ ok: false, problem: { kind: 'truncated' } });
    expect(parseCitationLink(`${base}%E2%82`)).toMatchObject({ ok: false, problem: { kind: 'truncated' } });
  });

  it('refuses hostile and broken links with a reason naming the field', () => {
    const cases: [string, string, string?][] = [
      ['', 'malformed'],
      ['hello', 'malformed'],
      [`evidesk://open?${'x'.repeat(MAX_LINK_CHARS)}`, 'oversized'],
      [`${base}&path=/etc/passwd`, 'unknown_field', 'path'],
      [`${base}&__proto__=1`, 'unknown_field', '__proto__'],
      [`evidesk:///etc/passwd`, 'unsafe', 'path'],
      [`evidesk://open/../../etc/passwd?sha256=${SHA}`, 'unsafe', 'path'],
      [`evidesk://delete?sha256=${SHA}`, 'unsafe', 'path'],
      ['javascript:alert(1)', 'unsafe'],
      ['file:///etc/passwd', 'unsafe'],
      [`evidesk://open?sha256=${SHA}&page=3&start=10&end=40&text=javascript:alert(1)`, 'unsafe', 'text'],
      [`evidesk://open?sha256=${SHA}&page=3&start=10&end=40&text=%3Cimg+src%3Dx+onerror%3Dalert(1)%3E`, 'unsafe', 'text'],
      [`evidesk://open?sha256=${SHA}&page=3&start=10&end=40&text=x&marker=%3Cscript%3E`, 'unsafe', 'marker'],
      [`evidesk://open?sha256=${'g'.repeat(64)}&page=3&start=10&end=40&text=x`, 'invalid_field', 'sha256'],
      [`evidesk://open?sha256=${SHA.toUpperCase()}&page=3&start=10&end=40&text=x`, 'invalid_field', 'sha256'],
      [`evidesk://open?sha256=${SHA}&page=-3&start=10&end=40&text=x`, 'invalid_field', 'page'],
      [`evidesk://open?sha256=${SHA}&page=0&start=10&end=40&text=x`, 'invalid_field', 'page'],
      [`evidesk://open?sha256=${SHA}&page=1.5&start=10&end=40&text=x`, 'invalid_field', 'page'],
      [`evidesk://open?sha256=${SHA}&page=1&line=2&start=10&end=40&text=x`, 'invalid_field', 'page'],
      [`evidesk://open?sha256=${SHA}&start=10&end=40&text=x`, 'invalid_field', 'page'],
      [`evidesk://open?sha256=${SHA}&page=1&start=50&end=40&text=x`, 'invalid_field', 'end'],
      [`evidesk://open?sha256=${SHA}&page=1&start=1&end=4&text=${'y'.repeat(500)}`, 'invalid_field', 'text'],
      [`evidesk://open?sha256=${SHA}&page=1&start=1&end=4&text=a%00b`, 'invalid_field', 'text'],
      [`evidesk://open?sha256=${SHA}&sha256=${SHA}&page=1&start=1&end=4&text=x`, 'malformed', 'sha256'],
    ];
    for (const [raw, kind, field] of cases) {
      const r = parseCitationLink(raw);
      expect(r.ok, raw.slice(0, 120)).toBe(false);
      if (!r.ok) {
        expect(r.problem.kind, raw.slice(0, 120)).toBe(kind);
        if (field) expect(r.problem.field, raw.slice(0, 120)).toBe(field);
      }
    }
  });

  it('makes fragments from quotes: first words, no markup or script, at most 160 characters', () => {
    expect(quoteFragment('  Annual\n leave   carries over. ')).toBe('Annual leave carries over.');
    expect(quoteFragment('<b>bold</b>')).toBeNull();
    expect(quoteFragment('Press here: javascript:alert(1)')).toBe('Press here:');
    expect(quoteFragment('Data: the results')).toBe('Data: the results');
    const long = quoteFragment('word '.repeat(100)) ?? '';
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long.endsWith('word')).toBe(true);
    const link = linkForPlace({ sha256: SHA, unit: 'line', at: 4, endAt: 6, start: 2, end: 9 }, 'some quote', { answer: 3, marker: '[bad]' });
    expect(link).toEqual({ sha256: SHA, line: 4, to: 6, start: 2, end: 9, text: 'some quote', answer: 3 });
  });

  it('writes file links for other readers: #page for PDFs, the line for text, words for a missing file', () => {
    expect(fileUrl('/home/a b/R&D #1.pdf')).toBe('file:///home/a%20b/R%26D%20%231.pdf');
    expect(fileUrl('C:\\Users\\x\\doc.pdf')).toBe('file:///C:/Users/x/doc.pdf');
    expect(fileUrl('\\\\server\\share\\doc.pdf')).toBe('file://server/share/doc.pdf');
    expect(fileLinkFor({ path: '/d/x.pdf', kind: 'pdf', health: 'ok' }, { unit: 'page', at: 47 })).toEqual({ href: 'file:///d/x.pdf#page=47', words: '/d/x.pdf, p. 47' });
    expect(fileLinkFor({ path: '/d/x.txt', kind: 'text', health: 'ok' }, { unit: 'line', at: 12 })).toEqual({ href: 'file:///d/x.txt', words: '/d/x.txt:12 (line 12)' });
    expect(fileLinkFor({ path: '/d/x.pdf', kind: 'pdf', health: 'missing' }, { unit: 'page', at: 4 })).toEqual({ href: null, words: 'file moved or deleted' });
  });
});
