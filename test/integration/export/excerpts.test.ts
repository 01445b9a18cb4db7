/**
 * Issue 9, item 2: evidence excerpt images. A quote in the middle of a generated PDF page gets the
 * band of the page around it (its text's columns, not the blank margins) as a JPEG of sane size, and its box lies over the quote's ink: the
 * rendered pixels under the box are dark text, and the box spans the quote's share of its line.
 * A text source's excerpt is its lines with exactly the quote marked. With excerpts left out, no
 * citation has one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { renderReport } from '../../../electron/services/export/render-report.ts';
import { TARGET_WIDTH } from '../../../electron/services/export/pdf-excerpt.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import type { Report } from '../../../shared/report/schema.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer } from '../../support/policy-workspace.ts';
import { callHandler, openTestServices } from '../../support/workspace.ts';

const require = createRequire(import.meta.url);

interface Img {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** The excerpt's PNG decoded to RGBA pixels by @napi-rs/canvas. */
async function decode(dataUri: string): Promise<Img> {
  const napi = require('@napi-rs/canvas') as {
    loadImage(b: Buffer): Promise<{ width: number; height: number }>;
    createCanvas(w: number, h: number): { getContext(k: '2d'): { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
  };
  const img = await napi.loadImage(Buffer.from(dataUri.split(',')[1] ?? '', 'base64'));
  const ctx = napi.createCanvas(img.width, img.height).getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

/** Share of dark pixels in a rectangle. */
function darkShare(img: Img, x0: number, y0: number, w: number, h: number): number {
  let dark = 0;
  let all = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(img.height, Math.ceil(y0 + h)); y++) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(img.width, Math.ceil(x0 + w)); x++) {
      const i = (y * img.width + x) * 4;
      all++;
      if ((img.data[i] ?? 255) + (img.data[i + 1] ?? 255) + (img.data[i + 2] ?? 255) < 3 * 128) dark++;
    }
  }
  return all === 0 ? 0 : dark / all;
}

const LINES = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of the filler text that surrounds the quoted sentence.`);
LINES[14] = 'Before the quote, the committee resolved that all invoices are paid within ten days, after it.';
const QUOTE = 'the committee resolved that all invoices are paid within ten days';

async function exported(excerpts: boolean, before?: (services: ReturnType<typeof openTestServices>) => void): Promise<Report> {
  const services = openTestServices();
  try {
    const docs = path.join(services.dir, 'docs');
    const pdf = writeFile(docs, 'Minutes.pdf', await makePdf([{ lines: ['Page one.'] }, { lines: LINES }], 'Minutes'));
    const notes = writeFile(docs, 'notes.txt', 'First line.\nSecond line says invoices are paid within ten days here.\nThird line.\n');
    await ingestAll(services, [pdf, notes]);
    const answer = writeFile(
      docs,
      'answer.json',
      nativeAnswer([
        { marker: '1', claim: 'Invoices are paid within ten days.', quote: QUOTE, source: { file: 'Minutes.pdf' }, locator: { page: 2 } },
        { marker: '2', claim: 'Invoices are paid in ten days.', quote: 'invoices are paid within ten days', source: { file: 'notes.txt' }, locator: { line: 2 } },
      ]),
    );
    const imported = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(answer));
    before?.(services);
    const target = path.join(services.dir, 'report.json');
    await callHandler(services, 'answers.export', { id: imported.answer.id, format: 'json', path: target, excerpts });
    return reportFromJson(fs.readFileSync(target, 'utf8'));
  } finally {
    services.close();
  }
}

describe('evidence excerpts', () => {
  it('renders the band of the PDF page around a mid-page quote, with a box over the quote’s ink', async () => {
    const report = await exported(true);
    const c = report.citations.find((x) => x.marker === '1');
    expect(c?.status).toBe('verified');
    const x = c?.excerpt;
    if (!x || !('image' in x)) throw new Error(`no image excerpt: ${JSON.stringify(c?.notes)}`);
    expect(x.image.dataUri.startsWith('data:image/jpeg;base64,')).toBe(true);
    // The page's text columns, not its blank margins: narrower than the page drawn at TARGET_WIDTH,
    // at least as wide as the longest line (72 pt margins on a 612 pt page).
    expect(x.image.width).toBeLessThan(TARGET_WIDTH * 0.95);
    expect(x.image.width).toBeGreaterThan((Math.max(...LINES.map((l) => l.length)) / LINES[14]!.length) * 0.6 * TARGET_WIDTH * ((612 - 144) / 612));
    // A band, not the page: the page would be TARGET_WIDTH × 1.29 TARGET_WIDTH pixels.
    expect(x.image.height).toBeGreaterThan(80);
    expect(x.image.height).toBeLessThan(400);
    expect(x.caption).toContain('p. 2');
    const img = await decode(x.image.dataUri);
    expect([img.width, img.height]).toEqual([x.image.width, x.image.height]);

    expect(x.boxes).toHaveLength(1);
    const box = x.boxes[0]!;
    // Under the box: text ink. In the gap between its line and the next, just below it: white paper.
    expect(darkShare(img, box.x, box.y, box.width, box.height)).toBeGreaterThan(0.08);
    expect(darkShare(img, box.x, box.y + box.height + 3, box.width, 2)).toBeLessThan(0.02);
    // The quote is the middle of its line: the box starts after the line's first words, ends before its last, and there is ink on both sides.
    const line = LINES[14]!;
    // The line's first ink: a little in from the image's left edge (the blank page margin is cut off).
    let lineLeft = 0;
    while (lineLeft < img.width && darkShare(img, lineLeft, box.y, 1, box.height) === 0) lineLeft++;
    expect(lineLeft).toBeGreaterThan(4);
    expect(lineLeft).toBeLessThan(40);
    expect(box.x).toBeGreaterThan(lineLeft + 40);
    expect(darkShare(img, lineLeft, box.y, box.x - lineLeft - 4, box.height)).toBeGreaterThan(0.05);
    expect(darkShare(img, box.x + box.width + 4, box.y, 40, box.height)).toBeGreaterThan(0.05);
    expect(box.width / TARGET_WIDTH).toBeGreaterThan((QUOTE.length / line.length) * ((612 - 144) / 612) * 0.5);
    // The box ends at the quote's last character, before the line's end.
    let lineRight = img.width - 1;
    while (lineRight > 0 && darkShare(img, lineRight, box.y, 1, box.height) === 0) lineRight--;
    expect(box.x + box.width).toBeLessThan(lineRight - 20);
    // Context lines above and below the quote are in the band.
    expect(box.y).toBeGreaterThan(40);
    expect(x.image.height - (box.y + box.height)).toBeGreaterThan(40);
  });

  it('gives a text source the lines around the quote, with exactly the quote marked, in the model, HTML and Markdown', async () => {
    const report = await exported(true);
    const c = report.citations.find((x) => x.marker === '2');
    expect(c?.match?.unit).toBe('line');
    const x = c?.excerpt;
    if (!x || !('text' in x)) throw new Error(`no text excerpt: ${JSON.stringify(c?.notes)}`);
    expect(x.text).toEqual({ before: 'First line.\nSecond line says ', quote: 'invoices are paid within ten days', after: ' here.\nThird line.' });
    expect(x.text.quote).toBe(c?.match?.text);
    expect(x.caption).toContain('Line 2');
    expect((await renderReport(report, 'html')).content).toContain('Second line says <mark>invoices are paid within ten days</mark> here.');
    expect((await renderReport(report, 'md')).content).toContain('Second line says **invoices are paid within ten days** here.');
  });

  it('leaves the excerpt out, with a note, when the page text pdf.js reads is not the stored text', async () => {
    // As if another pdf.js had extracted the page: one stored character, outside the quote, differs.
    const report = await exported(true, (services) => {
      services.db.prepare("UPDATE segments SET text = replace(text, 'Line 1 of', 'Lime 1 of') WHERE page = 2").run();
    });
    const c = report.citations.find((x) => x.marker === '1');
    expect(c?.excerpt).toBeNull();
    expect(c?.notes.join(' ')).toContain('differs from the stored text');
  });

  it('leaves excerpts out when asked', async () => {
    const report = await exported(false);
    expect(report.provenance.options.excerpts).toBe(false);
    expect(report.citations.every((c) => c.excerpt === null)).toBe(true);
  });
});
