// Plain text and Markdown extraction on real bytes in several encodings, generated here.
import { describe, expect, it } from 'vitest';
import type { ExtractedDocument, ExtractedSegment } from '../../../electron/services/ingest/extracted.ts';
import { decodeText } from '../../../electron/services/ingest/extractors/decode.ts';
import { MAX_LINES_PER_SEGMENT, extractMarkdown, extractText } from '../../../electron/services/ingest/extractors/text.ts';
import { appErrorOf as failure } from '../../support/extraction-assertions.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/**
 * An encoder for a double-byte legacy encoding, made by inverting TextDecoder over the encoding's
 * lead/trail byte ranges (no iconv here). ASCII passes through.
 */
function legacyEncoder(label: string, leads: [number, number][], trails: [number, number][]): (s: string) => Uint8Array {
  const table = new Map<string, [number, number]>();
  const decoder = new TextDecoder(label, { fatal: true });
  for (const [l0, l1] of leads) {
    for (let l = l0; l <= l1; l++) {
      for (const [t0, t1] of trails) {
        for (let t = t0; t <= t1; t++) {
          let ch: string;
          try {
            ch = decoder.decode(Uint8Array.of(l, t));
          } catch {
            continue;
          }
          if ([...ch].length === 1 && !table.has(ch)) table.set(ch, [l, t]);
        }
      }
    }
  }
  return (s) => {
    const out: number[] = [];
    for (const ch of s) {
      const c = ch.codePointAt(0) ?? 0;
      if (c < 0x80) {
        out.push(c);
        continue;
      }
      const pair = table.get(ch);
      if (!pair) throw new Error(`${label} cannot encode ${ch}`);
      out.push(...pair);
    }
    return Uint8Array.from(out);
  };
}

const toShiftJis = legacyEncoder('shift_jis', [[0x81, 0x9f], [0xe0, 0xfc]], [[0x40, 0x7e], [0x80, 0xfc]]);
const toEucJp = legacyEncoder('euc-jp', [[0xa1, 0xfe]], [[0xa1, 0xfe]]);

/** Windows-1252 bytes: Latin-1 characters keep their code, curly quotes go to 0x93/0x94. */
function toWindows1252(s: string): Uint8Array {
  const special: Record<string, number> = { '“': 0x93, '”': 0x94, '‘': 0x91, '’': 0x92, '–': 0x96, '—': 0x97, '€': 0x80 };
  return Uint8Array.from([...s].map((ch) => special[ch] ?? (ch.charCodeAt(0) < 0x100 ? ch.charCodeAt(0) : Number.NaN)));
}

/**
 * Finds a phrase and checks its locator against the file independently: the phrase sits on 1-based
 * line `line` at column `col` of the decoded file, so its offset inside the segment follows from the
 * segment's first line.
 */
function expectPhraseAt(doc: ExtractedDocument, sourceLines: string[], phrase: string, line: number): ExtractedSegment {
  const col = sourceLines[line - 1]?.indexOf(phrase) ?? -1;
  expect(col, `"${phrase}" is on line ${line} of the source`).toBeGreaterThanOrEqual(0);
  const seg = doc.segments.find((s) => (s.line ?? 0) <= line && line <= (s.lineEnd ?? 0));
  expect(seg, `a segment covers line ${line}`).toBeDefined();
  if (!seg) throw new Error('unreachable');
  let start = col;
  for (let l = seg.line ?? 1; l < line; l++) start += (sourceLines[l - 1]?.length ?? 0) + 1;
  const end = start + phrase.length;
  expect(seg.text.slice(start, end)).toBe(phrase);
  expect(seg.text.indexOf(phrase)).toBe(start);
  return seg;
}


describe('plain text', () => {
  const source = [
    'Leave Policy',
    '',
    'Employees accrue 14 days of annual leave',
    'per calendar year, pro rata for part-time staff.',
    '   ',
    'Requests go to the line manager, who answers',
    'within three working days.',
    '',
    '',
    'Last line without a newline',
  ];

  it('splits at blank lines, keeps line numbers and exact characters (CRLF normalised)', async () => {
    const doc = await extractText(utf8(source.join('\r\n')), { fileName: 'policy.txt' });
    expect(doc.kind).toBe('text');
    expect(doc.method).toBe('text@1; encoding=utf-8');
    expect(doc.warnings).toEqual([]);
    expect(doc.pageCount).toBeNull();
    expect(doc.segments.map((s) => [s.line, s.lineEnd])).toEqual([
      [1, 1],
      [3, 4],
      [6, 7],
      [10, 10],
    ]);
    expect(doc.segments[1]?.text).toBe('Employees accrue 14 days of annual leave\nper calendar year, pro rata for part-time staff.');
    expect(doc.segments.every((s) => !s.text.includes('\r'))).toBe(true);
    expectPhraseAt(doc, source, '14 days of annual leave', 3);
    expectPhraseAt(doc, source, 'pro rata for part-time staff', 4);
    expectPhraseAt(doc, source, 'within three working days.', 7);
    expectPhraseAt(doc, source, 'without a newline', 10);
  });

  it('treats lone CR as a line break too', async () => {
    const doc = await extractText(utf8('alpha\rbeta\r\rgamma'), { fileName: 'mac.txt' });
    expect(doc.segments.map((s) => [s.text, s.line, s.lineEnd])).toEqual([
      ['alpha\nbeta', 1, 2],
      ['gamma', 4, 4],
    ]);
  });

  it(`caps an unbroken run at ${MAX_LINES_PER_SEGMENT} lines`, async () => {
    const lines = Array.from({ length: 95 }, (_, i) => `row ${i + 1} of the ledger`);
    const doc = await extractText(utf8(lines.join('\n') + '\n'), { fileName: 'ledger.txt' });
    expect(doc.segments.map((s) => [s.line, s.lineEnd])).toEqual([
      [1, 40],
      [41, 80],
      [81, 95],
    ]);
    expectPhraseAt(doc, lines, 'row 57 of the ledger', 57);
    expectPhraseAt(doc, lines, 'row 95 of the ledger', 95);
  });

  it('strips a UTF-8 BOM and decodes UTF-16 LE/BE with a BOM', async () => {
    const text = 'Größe und Gewicht\n\nzweiter Absatz: 日本';
    const withBom = Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(text)]);
    const a = await extractText(withBom, { fileName: 'bom.txt' });
    expect(a.segments[0]?.text).toBe('Größe und Gewicht');
    expect(a.method).toBe('text@1; encoding=utf-8');

    const le = [0xff, 0xfe];
    const be = [0xfe, 0xff];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      le.push(c & 0xff, c >> 8);
      be.push(c >> 8, c & 0xff);
    }
    for (const [bytes, enc] of [
      [le, 'utf-16le'],
      [be, 'utf-16be'],
    ] as const) {
      const doc = await extractText(Uint8Array.from(bytes), { fileName: `${enc}.txt` });
      expect(doc.method).toBe(`text@1; encoding=${enc}`);
      expect(doc.segments.map((s) => s.text)).toEqual(['Größe und Gewicht', 'zweiter Absatz: 日本']);
      expect(doc.warnings.map((w) => w.code)).toEqual(['TEXT_ENCODING_DETECTED']);
      expect(doc.warnings[0]?.message).toContain(enc.toUpperCase());
    }
  });

  it('detects Windows-1252 (Latin-1) and says so', async () => {
    const lines = [
      'Über die Kündigung: Mitarbeiter müssen schriftlich kündigen, spätestens drei Monate vor Jahresende.',
      'Die Größe des Büros und die Straße werden im “Anhang” genannt; Fußgänger bitte beachten.',
      '',
      'Les employés reçoivent quatorze jours de congé payé par année civile, à prendre avant décembre.',
      'Le salarié doit prévenir son supérieur hiérarchique une semaine à l’avance.',
    ];
    const bytes = toWindows1252(lines.join('\n'));
    expect(bytes.includes(0x93)).toBe(true);
    const doc = await extractText(bytes, { fileName: 'latin.txt' });
    expect(doc.method).toBe('text@1; encoding=windows-1252');
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]?.code).toBe('TEXT_ENCODING_DETECTED');
    expect(doc.warnings[0]?.message).toMatch(/latin\.txt.*windows-1252/);
    expectPhraseAt(doc, lines, 'im “Anhang” genannt', 2);
    expectPhraseAt(doc, lines, 'Straße', 2);
    expectPhraseAt(doc, lines, 'quatorze jours de congé payé', 4);
    expectPhraseAt(doc, lines, 'à l’avance', 5);
  });

  const japanese = [
    '第一章　年次休暇について',
    '従業員は毎年十四日の年次休暇を取得することができます。',
    '休暇の申請は、少なくとも一週間前までに上司に提出してください。',
    '',
    '第二章　申請の手続き',
    '申請書は人事部が保管し、承認には通常三営業日かかります。',
    '緊急の場合は、電話で上司に連絡してから申請書を提出してください。',
  ];

  it('encodes the fixtures with the known JIS bytes', () => {
    expect([...toShiftJis('日本')]).toEqual([0x93, 0xfa, 0x96, 0x7b]);
    expect([...toEucJp('日本')]).toEqual([0xc6, 0xfc, 0xcb, 0xdc]);
  });

  for (const [enc, encode] of [
    ['shift_jis', toShiftJis],
    ['euc-jp', toEucJp],
  ] as const) {
    it(`detects ${enc} and finds a quote on its line`, async () => {
      const doc = await extractText(encode(japanese.join('\r\n') + '\r\n'), { fileName: `kyuka-${enc}.txt` });
      expect(doc.method).toBe(`text@1; encoding=${enc}`);
      expect(doc.warnings[0]?.message).toContain(enc);
      expect(doc.segments.map((s) => [s.line, s.lineEnd])).toEqual([
        [1, 3],
        [5, 7],
      ]);
      expectPhraseAt(doc, japanese, '十四日の年次休暇', 2);
      expectPhraseAt(doc, japanese, '承認には通常三営業日かかります', 6);
    });
  }

  it('decodes ISO-2022-JP, which would otherwise pass as ASCII with escape codes', () => {
    // 日本 in ISO-2022-JP: ESC $ B, the JIS X 0208 row/cell bytes of EUC-JP minus 0x80, ESC ( B.
    const euc = toEucJp('日本語の文書です。これは試験のための文章です。');
    const bytes = Uint8Array.from([...utf8('Title: '), 0x1b, 0x24, 0x42, ...[...euc].map((b) => b & 0x7f), 0x1b, 0x28, 0x42, 0x0a]);
    const decoded = decodeText(bytes, 'jis.txt');
    expect(decoded.encoding).toBe('iso-2022-jp');
    expect(decoded.text).toBe('Title: 日本語の文書です。これは試験のための文章です。\n');
  });

  it('refuses an empty file with FILE_EMPTY', async () => {
    const e = await failure(extractText(new Uint8Array(0), { fileName: 'empty.txt' }));
    expect(e.code).toBe('FILE_EMPTY');
    expect(e.message).toContain('empty.txt');
  });

  it('warns (not fails) when a file holds only whitespace', async () => {
    const doc = await extractText(utf8('\n   \n\t\n'), { fileName: 'blank.txt' });
    expect(doc.segments).toEqual([]);
    expect(doc.warnings.map((w) => w.code)).toEqual(['FILE_EMPTY']);
  });

  it('refuses binary data with NUL bytes as UNSUPPORTED_TYPE', async () => {
    // Deterministic pseudo-random bytes (a small LCG), with NULs sprinkled in.
    let x = 12345;
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => {
      x = (x * 1103515245 + 12345) >>> 0;
      return i % 17 === 0 ? 0 : x >>> 24;
    });
    const e = await failure(extractText(bytes, { fileName: 'blob.txt' }));
    expect(e.code).toBe('UNSUPPORTED_TYPE');
    expect(e.message).toMatch(/blob\.txt.*binary/);
  });

  it('refuses control-character soup that happens to be valid UTF-8', async () => {
    const bytes = Uint8Array.from({ length: 2000 }, (_, i) => [0x01, 0x02, 0x03, 0x41, 0x42, 0x08][i % 6] ?? 0x41);
    const e = await failure(extractText(bytes, { fileName: 'ctl.txt' }));
    expect(e.code).toBe('UNSUPPORTED_TYPE');
  });

  it('names the real type of a PDF or DOCX saved as .txt (WRONG_EXTENSION)', async () => {
    const pdf = await failure(extractText(utf8('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'), { fileName: 'report.txt' }));
    expect(pdf.code).toBe('WRONG_EXTENSION');
    expect(pdf.message).toMatch(/report\.txt.*PDF.*\.pdf/);
    const zip = await failure(extractText(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), { fileName: 'memo.txt' }));
    expect(zip.code).toBe('WRONG_EXTENSION');
  });

  it('refuses UTF-32 with TEXT_ENCODING_UNKNOWN', async () => {
    const e = await failure(extractText(Uint8Array.from([0xff, 0xfe, 0x00, 0x00, 0x41, 0, 0, 0]), { fileName: 'wide.txt' }));
    expect(e.code).toBe('TEXT_ENCODING_UNKNOWN');
    expect(e.message).toContain('wide.txt');
  });
});

describe('Markdown', () => {
  const source = [
    '---', // 1
    'title: "The Leave Handbook"',
    '---',
    '',
    '# Leave policy', // 5
    'Employees accrue 14 days of annual leave.',
    '',
    '## Requests ##',
    '',
    'Send requests to your manager', // 10
    'at least one week ahead.',
    '',
    '```sh',
    '# not a heading, a shell comment',
    '', // 15
    'submit --days 3',
    '```',
    '',
    'Carry-over',
    '----------', // 20
    '',
    'Up to five days carry over.',
    '',
    'Sick leave', // 24
    '==========',
    '',
    '- a list item',
    '---',
    '',
    '#### Deep heading', // 30
    'Deep text.',
  ];

  it('gives headings their own segments and every segment its heading path', async () => {
    const doc = await extractMarkdown(utf8(source.join('\n')), { fileName: 'handbook.md' });
    expect(doc.kind).toBe('markdown');
    expect(doc.method).toBe('markdown@1; encoding=utf-8');
    expect(doc.title).toBe('The Leave Handbook');
    const view = doc.segments.map((s) => [s.line, s.lineEnd, s.blockType, s.headingPath]);
    expect(view).toEqual([
      [1, 3, 'lines', []],
      [5, 5, 'heading', []],
      [6, 6, 'lines', ['Leave policy']],
      [8, 8, 'heading', ['Leave policy']],
      [10, 11, 'lines', ['Leave policy', 'Requests']],
      [13, 17, 'lines', ['Leave policy', 'Requests']],
      [19, 20, 'heading', ['Leave policy']],
      [22, 22, 'lines', ['Leave policy', 'Carry-over']],
      [24, 25, 'heading', []],
      [27, 28, 'lines', ['Sick leave']],
      [30, 30, 'heading', ['Sick leave']],
      [31, 31, 'lines', ['Sick leave', 'Deep heading']],
    ]);
    expectPhraseAt(doc, source, '14 days of annual leave', 6);
    expectPhraseAt(doc, source, 'one week ahead', 11);
    expectPhraseAt(doc, source, 'submit --days 3', 16);
    expectPhraseAt(doc, source, 'five days carry over', 22);
    expect(doc.segments[1]?.text).toBe('# Leave policy');
  });

  it('takes the title from the first H1 when there is no front matter', async () => {
    const doc = await extractMarkdown(utf8('Intro line.\n\n## Minor\n\nOverview\n========\n\n# Later\n'), { fileName: 'a.md' });
    expect(doc.title).toBe('Overview');
  });
});
