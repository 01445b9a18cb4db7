/**
 * Report export at answer scale: a 500-citation answer over a generated 40-page policy PDF (every
 * quote a real line of it, a tenth of them with a typo, a fifth reviewed), exported as HTML, JSON
 * and PDF through the export service (build from the store, render, atomic write; PDF printed by
 * Chromium). Goals from issue 9: HTML ≤ 5 s, PDF ≤ 20 s on this machine.
 * Run: node_modules/.bin/node bench/run.ts export
 */
import fs from 'node:fs';
import path from 'node:path';
import { createServices } from '../electron/services/create-services.ts';
import { makePdf, writeFile, type PageSpec } from '../test/support/pdf-fixtures.ts';
import { rng } from '../test/support/random.ts';
import { tempDir, testPlatform } from '../test/support/workspace.ts';
import type { Bench } from './report.ts';

const PAGES = 40;
const CITATIONS = 500;

export const bench: Bench = async () => {
  const r = rng(9);
  const dir = tempDir('evidesk-export-bench-');
  const services = createServices(testPlatform(), path.join(dir, 'workspace'));
  try {
    const pages: PageSpec[] = Array.from({ length: PAGES }, (_, p) => ({
      lines: Array.from({ length: 12 }, (_, l) => `Clause ${p + 1}.${l + 1}: staff in unit ${Math.floor(r() * 900) + 100} receive ${l + 2} days of notice for change ${p * 12 + l}.`),
    }));
    const pdf = writeFile(path.join(dir, 'docs'), 'Policy.pdf', await makePdf(pages, 'Policy'));
    await services.ingest.ingest({ paths: [pdf] });
    const citations = Array.from({ length: CITATIONS }, (_, i) => {
      const p = i % PAGES;
      const line = pages[p]?.lines[i % 12] ?? '';
      const quote = r() < 0.1 ? line.replace('receive', 'recieve') : line;
      return { marker: String(i + 1), claim: `Claim ${i + 1}: ${line.slice(0, 40)}.`, quote, source: { file: 'Policy.pdf' }, locator: { page: p + 1 } };
    });
    const content = JSON.stringify({ format: 'evidence-desk/answer@1', question: 'What notice do staff get?', answer: citations.map((c) => `${c.claim} [${c.marker}]`).join(' '), citations });
    const detail = services.answers.importFile({ fileName: 'bench.json', content });
    for (const c of detail.citations.filter((_, i) => i % 5 === 0)) services.review.decide(c.id, 'accepted', 'Checked.');

    const figures = [];
    for (const format of ['html', 'json', 'pdf'] as const) {
      const target = path.join(dir, `report.${format}`);
      const t0 = performance.now();
      const result = await services.exports.export({ id: detail.answer.id, format, path: target });
      const ms = performance.now() - t0;
      figures.push({ name: `export ${format}, ${CITATIONS} citations (${(result.bytes / 1024).toFixed(0)} KiB)`, value: ms / 1000, unit: 's', ...(format === 'html' ? { goal: { op: '<=' as const, value: 5, of: 'value' as const } } : format === 'pdf' ? { goal: { op: '<=' as const, value: 20, of: 'value' as const } } : {}) });
    }
    return [{ title: 'Report export (build from the store, render, write)', figures, notes: ['One run each; the PDF figure includes starting Chromium.'] }];
  } finally {
    services.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
