// Text, Markdown and HTML files as they arrive from the wild: byte-order marks, Windows and old Mac
// line endings, binary data under a text name, data exports and logs, front matter, web pages saved
// with a <meta charset> their bytes do not follow. The stored text at each locator is the known text.
import { expect, it } from 'vitest';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { storedState, withEngineDocs } from '../../support/engine-ingest.ts';
import type { SourceContent } from '../../../shared/contract/content-schemas.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { ingestFailure, ingestOne, lineOf, storedPhrase, storedSegments, storedTexts } from '../../support/stored-text.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

const LINES = ['First line of the memo.', 'Größe, café and “quotes” on line two.', '', 'Line four after a blank line.'];

function utf16(text: string, endian: 'le' | 'be'): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return endian === 'le' ? le : le.swap16();
}

// On both engines (issue 13): ingest writes through the engine in use, the text is read back from it.
describeEngines('text files from the wild', (engine) => {
  let opened: Opened<undefined>;
  let services: TestServices;
  let docs: string;
  withEngineDocs(engine, (o) => ({ services, docs } = opened = o));

  async function expectLines(sourceId: number, expected: [string, number][]): Promise<void> {
    for (const [phrase, line] of expected) {
      const hit = await storedPhrase(services, sourceId, phrase);
      expect(lineOf(hit), phrase).toBe(line);
    }
  }

  it('BOMs (UTF-8, UTF-16 LE and BE) never reach the text; CRLF and lone CR count lines as an editor does', async () => {
    const files: [string, Uint8Array][] = [
      ['bom-utf8.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LINES.join('\r\n'))])],
      ['utf16le.txt', utf16(LINES.join('\r\n') + '\r\n', 'le')],
      ['utf16be.txt', utf16(LINES.join('\n'), 'be')],
      ['old-mac.txt', Buffer.from(LINES.join('\r'))],
      ['mixed.txt', Buffer.from(`${LINES[0]}\r\n${LINES[1]}\n\r${LINES[3]}`)],
    ];
    for (const [name, bytes] of files) {
      const r = await ingestOne(services, writeFile(docs, name, bytes));
      const texts = await storedTexts(services, r.sourceId);
      expect(texts, name).toEqual([`${LINES[0]}\n${LINES[1]}`, LINES[3]]);
      expect(texts.join('').includes('\uFEFF') || texts.join('').includes('\r'), name).toBe(false);
      await expectLines(r.sourceId, [
        [LINES[0] ?? '', 1],
        [LINES[1] ?? '', 2],
        [LINES[3] ?? '', 4],
      ]);
      const second = await storedPhrase(services, r.sourceId, LINES[1] ?? '');
      expect(JSON.parse(second.seg.locator)).toMatchObject({ line: 1, lineEnd: 2 });
    }
  });

  it('refuses binary data under a text name, with or without a BOM in front, and stores nothing', async () => {
    const before = await storedState(opened);
    const binary = Buffer.from([...Buffer.from('header'), 0, 1, 2, 3, 0, 0, 5, 6, ...Buffer.from('more'), 0, 0, 0, 7]);
    for (const [name, bytes] of [
      ['dump.txt', binary],
      ['bom-dump.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), binary])],
      ['bom16-dump.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([1, 0, 2, 0, 3, 0, 0, 0, 0, 0, 0x41, 0, 0, 0, 7, 0, 8, 0])])],
    ] as const) {
      const e = await ingestFailure(services, writeFile(docs, name, bytes));
      expect(e.code, name).toBe('UNSUPPORTED_TYPE');
      expect(e.message).toContain(`"${name}" contains binary data`);
    }
    expect(await storedState(opened)).toBe(before);
  });

  it('ingests .csv, .tsv and .log files as plain text located by line; refuses .json as unsupported', async () => {
    const csv = await ingestOne(services, writeFile(docs, 'leave.csv', 'employee,days\r\nAda,14\r\nGrace,21\r\n'));
    await expectLines(csv.sourceId, [['Grace,21', 3]]);
    const tsv = await ingestOne(services, writeFile(docs, 'leave.tsv', 'employee\tdays\nAda\t14\n'));
    await expectLines(tsv.sourceId, [['Ada\t14', 2]]);
    const log = await ingestOne(services, writeFile(docs, 'audit.log', '2024-05-01 login ok\n\n2024-05-02 \x1b[31mpayment refused\x1b[0m\n'));
    await expectLines(log.sourceId, [['payment refused', 3]]);
    expect((await services.evidence.sources.get(log.sourceId))?.kind).toBe('text');
    const e = await ingestFailure(services, writeFile(docs, 'answer.json', '{"format":"evidence-desk/answer@1"}'));
    expect(e.code).toBe('UNSUPPORTED_TYPE');
    expect(e.message).toMatch(/answer\.json.*plain text \(\.txt, \.csv, \.tsv, \.log\)/);
  });

  it('keeps YAML front matter as one block; "---" followed by a blank line is a rule, not front matter', async () => {
    const front = await ingestOne(services, writeFile(docs, 'post.md', '---\ntitle: "Leave policy"\ndate: 2024-05-01\n---\n\n# Annual leave\n\nStaff get 14 days.\n'));
    expect((await services.evidence.sources.get(front.sourceId))?.title).toBe('Leave policy');
    expect(await storedTexts(services, front.sourceId)).toEqual(['---\ntitle: "Leave policy"\ndate: 2024-05-01\n---', '# Annual leave', 'Staff get 14 days.']);
    const rule = await ingestOne(services, writeFile(docs, 'notes.md', '---\n\nFirst paragraph.\n\n---\n\nSecond paragraph.\n'));
    expect(await storedTexts(services, rule.sourceId)).toEqual(['---', 'First paragraph.', '---', 'Second paragraph.']);
    await expectLines(rule.sourceId, [['Second paragraph.', 7]]);
  });
});

describeEngines('HTML pages from the wild', (engine) => {
  let services: TestServices;
  let docs: string;
  withEngineDocs(engine, (opened) => ({ services, docs } = opened));

  const page = (meta: string, body: string): string => `<!doctype html><html><head>${meta}<title>Policy</title></head><body>${body}</body></html>`;
  const BODY = '<p>Café “déjà vu” – 14 days</p>';

  it('reads the declared charset, lets a BOM win over it, and reads UTF-8 bytes as UTF-8 whatever the meta says', async () => {
    const cases: [string, Uint8Array, RegExp | null][] = [
      ['declared-1252.html', Buffer.from(page('<meta charset="windows-1252">', BODY).replace(/[“”–]/g, (c) => ({ '“': '\x93', '”': '\x94', '–': '\x96' })[c] ?? c), 'latin1'), /decoded as windows-1252 \(the encoding the file declares\)/],
      ['bom-wins.html', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page('<meta charset="windows-1252">', BODY))]), null],
      ['saved-from-web.html', Buffer.from(page('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">', BODY)), /declares the encoding iso-8859-1 but its bytes are UTF-8; it was read as UTF-8/],
    ];
    for (const [name, bytes, warning] of cases) {
      const r = await ingestOne(services, writeFile(docs, name, bytes));
      expect(await storedTexts(services, r.sourceId), name).toEqual(['Café “déjà vu” – 14 days']);
      if (warning) expect(r.warnings.map((w) => w.message).join('\n'), name).toMatch(warning);
      else expect(r.warnings, name).toEqual([]);
    }
  });

  it('reads Shift_JIS declared in a meta http-equiv', async () => {
    const text = '日本語の方針：年次休暇は十四日です。';
    const sjis = new Uint8Array([...Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body><p>'), ...SHIFT_JIS_POLICY, ...Buffer.from('</p></body></html>')]);
    const r = await ingestOne(services, writeFile(docs, 'policy-ja.html', sjis));
    expect(await storedTexts(services, r.sourceId)).toEqual([text]);
  });

  it('drops script, style, noscript and template; keeps nav and footer text, <pre> line breaks, <br>, cells, definitions and entities', async () => {
    const html = page(
      '<style>p { color: red }</style><script>var x = "<p>not text</p>";</script>',
      [
        '<nav><a href="/">Home</a> | <a href="/policies">Policies</a></nav>',
        '<noscript>Please enable JavaScript.</noscript><template><p>Template text</p></template>',
        '<p>First line<br>second line</p>',
        '<pre>\n  indented   code\n\nafter a blank</pre>',
        '<table><tr><th>Leave</th><td>14&nbsp;days &amp; more &copy 2024 &#8217;&#x2019;</td></tr></table>',
        '<dl><dt>Accrual</dt><dd>Monthly, pro rata.</dd></dl>',
        '<footer>© 2024 Example Corp · Privacy</footer>',
      ].join('\n'),
    );
    const r = await ingestOne(services, writeFile(docs, 'page.html', html));
    expect(await storedTexts(services, r.sourceId)).toEqual([
      'Home | Policies',
      'First line\nsecond line',
      '  indented   code\n\nafter a blank',
      'Leave',
      '14\u00a0days & more © 2024 ’’',
      'Accrual',
      'Monthly, pro rata.',
      '© 2024 Example Corp · Privacy',
    ]);
    const cell = await storedPhrase(services, r.sourceId, '14\u00a0days & more');
    expect(JSON.parse(cell.seg.locator)).toMatchObject({ paragraph: 4, start: 0 });
    expect(cell.seg.block_type).toBe('table_cell');
  });

  it('splits text that sits beside headings and paragraphs in one container into blocks in reading order, under their headings', async () => {
    // Old-style pages and legislation sites: one <div> of loose text, <br> and headings.
    const html = page(
      '',
      '<div id="content"><h2>Article 1</h2>Employees get 14 days.<br><br>Requests go to HR.<h2>Article 2</h2>Carry-over is capped at five days.<p>A proper paragraph.</p>Closing words.</div>',
    );
    const r = await ingestOne(services, writeFile(docs, 'articles.html', html));
    const segments = await storedSegments(services, r.sourceId);
    expect(segments.map((s) => [s.paragraph, s.text, JSON.parse(s.heading_path ?? '[]')])).toEqual([
      [0, 'Article 1', []],
      [1, 'Employees get 14 days.\n\nRequests go to HR.', ['Article 1']],
      [2, 'Article 2', []],
      [3, 'Carry-over is capped at five days.', ['Article 2']],
      [4, 'A proper paragraph.', ['Article 2']],
      [5, 'Closing words.', ['Article 2']],
    ]);
    // The viewer shows the same blocks, by construction (sources.content reads the local copy only:
    // on PostgreSQL it is not on the interface yet, docs/postgres-store.md).
    if (engine.name !== 'sqlite') return;
    const content = await callHandler<SourceContent>(services, 'sources.content', { id: r.sourceId });
    if (content.view !== 'blocks') throw new Error(`expected blocks, got ${content.view}`);
    expect(content.blocks.map((b) => [b.paragraph, b.text])).toEqual(segments.map((s) => [s.paragraph, s.text]));
  });
});

/** "日本語の方針：年次休暇は十四日です。" in Shift_JIS (Node has no Shift_JIS encoder). */
const SHIFT_JIS_POLICY = [
  0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x95, 0xfb, 0x90, 0x6a, 0x81, 0x46, 0x94, 0x4e, 0x8e, 0x9f, 0x8b, 0x78, 0x89, 0xc9, 0x82, 0xcd, 0x8f,
  0x5c, 0x8e, 0x6c, 0x93, 0xfa, 0x82, 0xc5, 0x82, 0xb7, 0x81, 0x42,
];
