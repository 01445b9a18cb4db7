/**
 * Issue 9, done-when 2 (text part): the PDF report of the reviewed workspace, printed by Chromium
 * through `evidesk export --format pdf`, read back with pdf.js: every quote and every source
 * SHA-256 is in its text, and its outline has the report's sections. No Chromium: a coded error
 * naming CHROMIUM_PATH.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPdfjs } from '../../../electron/services/ingest/pdfjs.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import { runCli, type CliIo } from '../../../electron/cli/main.ts';
import { evidesk } from '../../support/cli.ts';
import { findChromium } from '../../support/chromium.ts';
import { EXPORT_CITATIONS, exportWorkspace, type ExportWorkspace } from '../../support/export-workspace.ts';
import { tempDir } from '../../support/workspace.ts';

const squash = (t: string) => t.replace(/\s+/g, '');

async function pdfText(file: string): Promise<{ text: string; outline: string[]; outlinePages: number[]; pages: number }> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync(file)), verbosity: pdfjs.VerbosityLevel.ERRORS });
  try {
    const doc = await task.promise;
    const parts: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const content = await (await doc.getPage(p)).getTextContent();
      for (const item of content.items) if ('str' in item) parts.push(item.str);
    }
    // Every outline entry with the page its destination lands on (the outline is written by the export onto Chromium's named destinations).
    type Item = { title: string; dest: string | unknown[] | null; items: Item[] };
    const titles: string[] = [];
    const outlinePages: number[] = [];
    const walk = async (items: Item[] | null) => {
      for (const i of items ?? []) {
        titles.push(i.title);
        const dest = typeof i.dest === 'string' ? await doc.getDestination(i.dest) : i.dest;
        outlinePages.push(dest ? (await doc.getPageIndex(dest[0] as { num: number; gen: number })) + 1 : 0);
        await walk(i.items);
      }
    };
    await walk((await doc.getOutline()) as Item[] | null);
    return { text: parts.join(' '), outline: titles, outlinePages, pages: doc.numPages };
  } finally {
    await task.destroy();
  }
}

describe('evidesk export --format pdf', () => {
  let w: ExportWorkspace;
  let out: string;
  beforeAll(async () => {
    w = await exportWorkspace();
    out = tempDir('evidesk-pdf-');
  });

  it('prints the HTML report with Chromium: every quote and every source SHA-256 in its text, sections in its outline', async () => {
    const env = { CHROMIUM_PATH: findChromium() };
    const target = path.join(out, 'report.pdf');
    const lines: string[] = [];
    const errors: string[] = [];
    const io: CliIo = { out: (t) => lines.push(t), err: (t) => errors.push(t) };
    const code = await runCli(['--workspace', w.workspace, 'export', String(w.answerId), '--format', 'pdf', '--out', target], io, env);
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(fs.readFileSync(target).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const json = path.join(out, 'report.json');
    expect((await evidesk(w.workspace, 'export', String(w.answerId), '--format', 'json', '--out', json)).code).toBe(0);
    const report = reportFromJson(fs.readFileSync(json, 'utf8'));

    const { text, outline, outlinePages, pages } = await pdfText(target);
    expect(pages).toBeGreaterThan(0);
    const flat = squash(text);
    for (const c of EXPORT_CITATIONS) if (c.quote) expect(flat).toContain(squash(c.quote));
    expect(report.sources).toHaveLength(2);
    for (const s of report.sources) expect(flat).toContain(s.sha256);
    expect(outline).toEqual(expect.arrayContaining(['Answer', 'Summary', 'Unresolved citations', 'Citations', 'Sources', 'Provenance']));
    // One entry per citation, in footnote order, and every entry lands on a page of the report, in reading order.
    expect(outline.filter((t) => / Citation \[/.test(t))).toEqual(report.citations.map((_, i) => expect.stringMatching(new RegExp(`^${i + 1}\\. Citation \\[`))));
    expect(outlinePages.every((p) => p >= 1 && p <= pages)).toBe(true);
    expect(outlinePages).toEqual([...outlinePages].sort((a, b) => a - b));
  });

  it('with no Chromium at CHROMIUM_PATH: CHROMIUM_NOT_FOUND naming it, and no file', async () => {
    const target = path.join(out, 'none.pdf');
    const lines: string[] = [];
    const io: CliIo = { out: (t) => lines.push(t), err: (t) => lines.push(t) };
    const missing = path.join(out, 'no-chromium-here');
    const code = await runCli(['--workspace', w.workspace, 'export', String(w.answerId), '--format', 'pdf', '--out', target], io, { CHROMIUM_PATH: missing });
    expect(code).toBe(3);
    expect(lines.join('\n')).toMatch(new RegExp(`CHROMIUM_PATH is set to ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*\\[CHROMIUM_NOT_FOUND\\]`));
    expect(fs.existsSync(target)).toBe(false);
  });
});
