/**
 * Issue 9: the excerpts of one PDF page are drawn in groups (bands that overlap or nearly touch
 * share one drawing; rows between groups far apart are not drawn). Whatever the grouping, each
 * excerpt is the image, with the very boxes, that its quote gets when it is the page's only
 * excerpt: a quote near the top of a page, one near the bottom and one overlapping it, exported
 * together and then each alone, in the extraction children as in the app. "The image": the same
 * size and, decoded, the same pixels but for anti-aliasing where a line of text is cut by the
 * band's edge (drawn on a canvas ending there, or cropped from a taller one) and JPEG's noise.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { excerptCacheDir } from '../../../electron/services/export/excerpt-cache.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import type { ReportImageExcerpt } from '../../../shared/report/schema.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer } from '../../support/policy-workspace.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

const require = createRequire(import.meta.url);
const napi = require('@napi-rs/canvas') as {
  loadImage(b: Buffer): Promise<{ width: number; height: number }>;
  createCanvas(w: number, h: number): { getContext(k: '2d'): { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
};

/** The excerpt's image decoded to RGBA values. */
async function pixels(x: ReportImageExcerpt): Promise<Uint8ClampedArray> {
  const img = await napi.loadImage(Buffer.from(x.image.dataUri.split(',')[1] ?? '', 'base64'));
  const ctx = napi.createCanvas(img.width, img.height).getContext('2d');
  ctx.drawImage(img, 0, 0);
  return ctx.getImageData(0, 0, img.width, img.height).data;
}

const LINES = Array.from({ length: 40 }, (_, i) => `Row ${i + 1}: the ledger lists payment number ${1000 + i * 37} as settled.`);
const QUOTES = [LINES[3]!, LINES[34]!, LINES[36]!].map((l) => l.slice(l.indexOf('the ledger')));

/** Each quote's excerpt, from one export of an answer citing `quotes` (the excerpt cache emptied first). */
async function excerpts(services: TestServices, quotes: readonly string[]): Promise<ReportImageExcerpt[]> {
  fs.rmSync(excerptCacheDir(services.workspaceDir), { recursive: true, force: true });
  const docs = path.join(services.dir, 'docs');
  const answer = writeFile(docs, `answer-${quotes.length}-${QUOTES.indexOf(quotes[0]!)}.json`, nativeAnswer(quotes.map((quote, i) => ({ marker: String(i + 1), claim: `Claim ${i + 1}.`, quote, source: { file: 'Ledger.pdf' }, locator: { page: 1 } }))));
  const imported = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(answer));
  const target = path.join(services.dir, 'report.json');
  await callHandler(services, 'answers.export', { id: imported.answer.id, format: 'json', path: target });
  return reportFromJson(fs.readFileSync(target, 'utf8')).citations.map((c) => {
    const x = c.excerpt;
    if (!x || !('image' in x)) throw new Error(`no image excerpt: ${JSON.stringify(c.notes)}`);
    return x;
  });
}

describe('excerpts of one page drawn in groups', () => {
  it('gives each excerpt the image and boxes it gets alone', async () => {
    const services = openTestServices();
    try {
      await ingestAll(services, [writeFile(path.join(services.dir, 'docs'), 'Ledger.pdf', await makePdf([{ lines: LINES }], 'Ledger'))]);
      const together = await excerpts(services, QUOTES);
      expect(together).toHaveLength(3);
      // The top quote's band and the bottom ones' do not meet: they are drawn apart.
      expect(together[0]!.image.height).toBeLessThan(400);
      for (const [i, quote] of QUOTES.entries()) {
        const [alone] = await excerpts(services, [quote]);
        expect(together[i]!.boxes, `excerpt ${i + 1}`).toEqual(alone!.boxes);
        expect(together[i]!.image.width).toBe(alone!.image.width);
        expect(together[i]!.image.height).toBe(alone!.image.height);
        const [a, b] = [await pixels(together[i]!), await pixels(alone!)];
        let off = 0;
        for (let k = 0; k < a.length; k++) if (Math.abs(a[k]! - b[k]!) > 32) off++;
        expect(off / a.length, `excerpt ${i + 1}`).toBeLessThan(0.002);
      }
    } finally {
      services.close();
    }
  });
});
