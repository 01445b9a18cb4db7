/**
 * Issue 9, Done-when 5 (speed): a PDF excerpt drawn once is kept in the workspace's cache and
 * reused by the next export of the same answer (another format, or again). The entry is named by
 * what the excerpt depends on, so a changed quote, page text or source gets a new one; an entry
 * that is not a valid excerpt is drawn again and replaced.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { excerptCacheDir, excerptKey } from '../../../electron/services/export/excerpt-cache.ts';
import type { PdfExcerptAsk } from '../../../electron/services/export/pdf-excerpt.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import type { Report, ReportImageExcerpt } from '../../../shared/report/schema.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer } from '../../support/policy-workspace.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

const LINES = Array.from({ length: 24 }, (_, i) => `Line ${i + 1} of the minutes, kept here as filler around the quote.`);
LINES[10] = 'The board agreed that every contract above ten thousand euros needs two signatures.';
const QUOTE = 'every contract above ten thousand euros needs two signatures';

/** The cache's entries (file paths). */
function entries(services: TestServices): string[] {
  const dir = excerptCacheDir(path.join(services.dir, 'workspace'));
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => path.join(dir, f));
}

async function setUp(services: TestServices): Promise<number> {
  const docs = path.join(services.dir, 'docs');
  const pdf = writeFile(docs, 'Minutes.pdf', await makePdf([{ lines: LINES }], 'Minutes'));
  await ingestAll(services, [pdf]);
  const answer = writeFile(docs, 'answer.json', nativeAnswer([{ marker: '1', claim: 'Two signatures are needed.', quote: QUOTE, source: { file: 'Minutes.pdf' }, locator: { page: 1 } }]));
  return (await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(answer))).answer.id;
}

async function exportJson(services: TestServices, id: number): Promise<Report> {
  const target = path.join(services.dir, 'report.json');
  await callHandler(services, 'answers.export', { id, format: 'json', path: target });
  return reportFromJson(fs.readFileSync(target, 'utf8'));
}

function imageOf(report: Report): ReportImageExcerpt {
  const x = report.citations[0]?.excerpt;
  if (!x || !('image' in x)) throw new Error(`no image excerpt: ${JSON.stringify(report.citations[0]?.notes)}`);
  return x;
}

describe('the excerpt cache', () => {
  it('keeps the excerpt drawn by one export and gives it to the next, whatever the format', async () => {
    const services = openTestServices();
    try {
      const id = await setUp(services);
      expect(entries(services)).toEqual([]);
      const first = imageOf(await exportJson(services, id));
      const kept = entries(services);
      expect(kept).toHaveLength(1);
      expect(JSON.parse(fs.readFileSync(kept[0]!, 'utf8'))).toEqual(first);

      // The next export reads the entry instead of drawing: an entry changed on disk shows in it.
      const marked = { ...first, caption: `${first.caption} (kept)` };
      fs.writeFileSync(kept[0]!, JSON.stringify(marked));
      expect(imageOf(await exportJson(services, id))).toEqual(marked);
      const html = path.join(services.dir, 'report.html');
      await callHandler(services, 'answers.export', { id, format: 'html', path: html });
      expect(fs.readFileSync(html, 'utf8')).toContain('(kept)');
    } finally {
      services.close();
    }
  });

  it('draws again, and replaces, an entry that is not a valid excerpt', async () => {
    const services = openTestServices();
    try {
      const id = await setUp(services);
      const first = imageOf(await exportJson(services, id));
      const [entry] = entries(services);
      fs.writeFileSync(entry!, '{"image": {"dataUri": "data:text/html,<script>alert(1)</script>"');
      expect(imageOf(await exportJson(services, id))).toEqual(first);
      expect(JSON.parse(fs.readFileSync(entry!, 'utf8'))).toEqual(first);
    } finally {
      services.close();
    }
  });

  it('names an entry by everything the excerpt depends on', () => {
    const ask: PdfExcerptAsk = { page: 2, pageLabel: null, pageText: 'One line.\nThe quote here.\n', start: 10, end: 19 };
    const sha = 'a'.repeat(64);
    const key = excerptKey(sha, ask);
    expect(excerptKey(sha, { ...ask })).toBe(key);
    const changed = [
      excerptKey('b'.repeat(64), ask),
      excerptKey(sha, { ...ask, page: 3 }),
      excerptKey(sha, { ...ask, pageLabel: 'ii' }),
      excerptKey(sha, { ...ask, start: 11 }),
      excerptKey(sha, { ...ask, end: 18 }),
      excerptKey(sha, { ...ask, pageText: 'One line!\nThe quote here.\n' }),
      excerptKey(sha, { ...ask, ocr: { itemStarts: [0], boxes: [[0, 0, 0.5, 0.1]] } }),
    ];
    expect(new Set([key, ...changed]).size).toBe(changed.length + 1);
  });
});
