// HTML extraction: blocks, heading paths, dropped content, declared and detected encodings.
import { describe, expect, it } from 'vitest';
import { extractHtml, sniffDeclaredCharset } from '../../../electron/services/ingest/extractors/html.ts';
import { appErrorOf, findPhrase as find } from '../../support/extraction-assertions.ts';

const page = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Leave   Policy &amp; Procedures</title>
  <style>p { color: red } .secret { }</style>
  <script>var leaked = "SCRIPT TEXT MUST NOT APPEAR";</script>
</head>
<body>
  <nav><ul><li><a href="/">Home</a></li></ul></nav>
  <h1>Chapter 1</h1>
  <p>Employees accrue <b>14 days</b>
     of annual
     leave.</p>
  <h2>Section 1.1</h2>
  <ul>
    <li>First item
      <ul><li>Nested item</li></ul>
    </li>
    <li>Second&nbsp;item</li>
  </ul>
  <h2>Section 1.2</h2>
  <table>
    <tr><th>Leave type</th><th>Days</th></tr>
    <tr><td>Annual leave</td><td>14</td></tr>
  </table>
  <pre>
line one
  indented line two</pre>
  <div class="note">Direct div text<p>Inner paragraph</p>tail text</div>
  <noscript>Enable JavaScript</noscript>
  <template><p>Template text</p></template>
  <p hidden>Hidden text</p>
  <blockquote>Quoted words</blockquote>
  <dl><dt>Term</dt><dd>Definition text</dd></dl>
  <figure><img src="x.png" alt="chart"><figcaption>Figure 1: leave by year</figcaption></figure>
  <p>First line<br>
     second line</p>
  <h1>Chapter 2</h1>
  <section>Section direct text</section>
</body>
</html>`;


describe('HTML extraction', () => {
  it('emits one segment per block with index, heading path and type', async () => {
    const doc = await extractHtml(new TextEncoder().encode(page), { fileName: 'policy.html' });
    expect(doc.kind).toBe('html');
    expect(doc.method).toBe('htmlparser2@12.0.0; encoding=utf-8');
    expect(doc.title).toBe('Leave Policy & Procedures');
    expect(doc.warnings).toEqual([]);
    expect(doc.segments.map((s) => s.paragraph)).toEqual(doc.segments.map((_, i) => i));
    expect(doc.segments.map((s) => [s.blockType, s.text])).toEqual([
      ['list_item', 'Home'],
      ['heading', 'Chapter 1'],
      ['paragraph', 'Employees accrue 14 days of annual leave.'],
      ['heading', 'Section 1.1'],
      ['list_item', 'First item'],
      ['list_item', 'Nested item'],
      ['list_item', 'Second\u00a0item'],
      ['heading', 'Section 1.2'],
      ['table_cell', 'Leave type'],
      ['table_cell', 'Days'],
      ['table_cell', 'Annual leave'],
      ['table_cell', '14'],
      ['paragraph', 'line one\n  indented line two'],
      ['paragraph', 'Direct div text'],
      ['paragraph', 'Inner paragraph'],
      ['paragraph', 'tail text'],
      ['paragraph', 'Quoted words'],
      ['list_item', 'Term'],
      ['list_item', 'Definition text'],
      ['paragraph', 'Figure 1: leave by year'],
      ['paragraph', 'First line\nsecond line'],
      ['heading', 'Chapter 2'],
      ['paragraph', 'Section direct text'],
    ]);
    const all = doc.segments.map((s) => s.text).join('\n');
    for (const hidden of ['SCRIPT TEXT', 'color: red', 'Enable JavaScript', 'Template text', 'Hidden text', 'Leave   Policy']) {
      expect(all).not.toContain(hidden);
    }

    const leave = find(doc, '14 days of annual leave');
    expect(leave.seg.headingPath).toEqual(['Chapter 1']);
    expect([leave.start, leave.end]).toEqual([17, 40]);
    expect(find(doc, 'Annual leave').seg.headingPath).toEqual(['Chapter 1', 'Section 1.2']);
    expect(find(doc, 'Nested item').seg.headingPath).toEqual(['Chapter 1', 'Section 1.1']);
    expect(find(doc, 'Section 1.1').seg.headingPath).toEqual(['Chapter 1']);
    expect(find(doc, 'Section direct text').seg.headingPath).toEqual(['Chapter 2']);
    const pre = find(doc, 'one\n  indented');
    expect(pre.seg.text.slice(pre.start, pre.end)).toBe('one\n  indented');
  });

  it('uses the declared charset (windows-1252) and says so', async () => {
    const html = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><title>Caf\u00e9</title></head><body><p>Caf\u00e9 \u201cna\u00efve\u201d Stra\u00dfe</p></body></html>';
    const special: Record<string, number> = { '\u201c': 0x93, '\u201d': 0x94 };
    const bytes = Uint8Array.from([...html].map((ch) => special[ch] ?? ch.charCodeAt(0)));
    expect(sniffDeclaredCharset(bytes)).toBe('windows-1252');
    const doc = await extractHtml(bytes, { fileName: 'legacy.html' });
    expect(doc.method).toBe('htmlparser2@12.0.0; encoding=windows-1252');
    expect(doc.title).toBe('Café');
    expect(doc.segments[0]?.text).toBe('Café “naïve” Straße');
    expect(doc.warnings[0]?.message).toContain('windows-1252');
  });

  it('reads the XML prolog encoding of XHTML and honours self-closing tags there', async () => {
    const xhtml = '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Before<a id="x"/> after</p><div/><p>Next</p></body></html>';
    const doc = await extractHtml(new TextEncoder().encode(xhtml), { fileName: 'page.xhtml' });
    expect(doc.segments.map((s) => s.text)).toEqual(['Before after', 'Next']);
  });

  it('keeps text outside any element (a fragment)', async () => {
    const doc = await extractHtml(new TextEncoder().encode('Loose text <b>bold</b><p>Para</p>'), { fileName: 'frag.html' });
    expect(doc.segments.map((s) => s.text)).toEqual(['Loose text bold', 'Para']);
  });

  it('refuses zero bytes and binary data', async () => {
    await expect(extractHtml(new Uint8Array(0), { fileName: 'e.html' })).rejects.toMatchObject({ code: 'FILE_EMPTY' });
    const bin = Uint8Array.from({ length: 512 }, (_, i) => (i * 7919) % 256);
    expect((await appErrorOf(extractHtml(bin, { fileName: 'b.html' }))).code).toBe('UNSUPPORTED_TYPE');
  });

  it('warns when a page has no visible text', async () => {
    const doc = await extractHtml(new TextEncoder().encode('<html><head><title>T</title><script>x()</script></head><body> <img src="a.png"> </body></html>'), {
      fileName: 'img.html',
    });
    expect(doc.segments).toEqual([]);
    expect(doc.warnings.map((w) => w.code)).toEqual(['FILE_EMPTY']);
  });
});
