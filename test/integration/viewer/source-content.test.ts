// sources.content: what the viewer is given for DOCX, HTML, Markdown and text sources agrees with
// the stored segments, block for block and line for line, on real generated files and real SQLite.
import fs from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceContent } from '../../../shared/contract/content-schemas.ts';
import { differingBlocks, differingLines, piecesMatch, type Piece } from '../../../renderer/src/features/viewer/flow-place.ts';
import { makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import { HANDBOOK_HTML, NOTES_MARKDOWN, REPORT, makeHandbookDocx, makeReportText } from '../../support/viewer-documents.ts';
import { callHandler, openTestServices, reopenTestServices } from '../../support/workspace.ts';

type Services = ReturnType<typeof openTestServices>;

async function ingestOne(services: Services, file: string): Promise<number> {
  const [r] = (await services.ingest.ingest({ paths: [file] })).files;
  if (!r?.ok) throw new Error(`ingest failed: ${JSON.stringify(r)}`);
  return r.sourceId;
}

const content = (services: Services, id: number) => callHandler<SourceContent>(services, 'sources.content', { id });

/** The DOCX viewer's data, read as a browser would: block elements and text pieces by their attributes. */
function docxPieces(html: string): { blocks: number[]; pieces: Map<number, Piece[]> } {
  const blocks: number[] = [];
  const pieces = new Map<number, Piece[]>();
  const open: { block: number | null; at: number; text: string }[] = [];
  const parser = new Parser(
    {
      onopentag(_name, attribs) {
        if (attribs['data-ed-block'] !== undefined) blocks.push(Number(attribs['data-ed-block']));
        const b = attribs['data-ed-b'];
        open.push({ block: b === undefined ? null : Number(b), at: Number(attribs['data-ed-at'] ?? -1), text: '' });
      },
      ontext(t) {
        const top = open[open.length - 1];
        if (top?.block !== null && top) top.text += t;
      },
      onclosetag() {
        const top = open.pop();
        if (top && top.block !== null) pieces.set(top.block, [...(pieces.get(top.block) ?? []), { at: top.at, s: top.text }]);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { blocks, pieces };
}

describe('sources.content: the viewer is given the stored text, block for block and line for line', () => {
  let services: Services;
  const ids: Record<string, number> = {};
  let dir: string;

  beforeAll(async () => {
    services = openTestServices();
    dir = path.join(services.dir, 'docs');
    ids['docx'] = await ingestOne(services, writeFile(dir, 'staff-handbook.docx', await makeHandbookDocx()));
    ids['html'] = await ingestOne(services, writeFile(dir, 'leave.html', HANDBOOK_HTML));
    ids['markdown'] = await ingestOne(services, writeFile(dir, 'notes.md', NOTES_MARKDOWN));
    ids['text'] = await ingestOne(services, writeFile(dir, REPORT.fileName, makeReportText()));
    ids['pdf'] = await ingestOne(services, writeFile(dir, 'three-pages.pdf', await makePdf(threePages())));
  });

  afterAll(() => services?.close());

  it('DOCX: every stored segment is the text of the block the viewer numbers with its index', async () => {
    const c = await content(services, ids['docx'] ?? 0);
    if (c.view !== 'docx') throw new Error(`view ${c.view}`);
    expect(c.servedFrom).toBe('original');
    expect(c.unannotated).toBe(0);
    const { blocks, pieces } = docxPieces(c.html);
    const paragraphs = c.segments.map((s) => s.paragraph);
    expect(blocks).toEqual(paragraphs);
    expect(paragraphs).toEqual(paragraphs.map((_, i) => i));
    for (const seg of c.segments) {
      expect(piecesMatch(pieces.get(seg.paragraph ?? -1) ?? [], seg.text), `¶ ${seg.paragraph}: ${seg.text}`).toBe(true);
    }
    expect(differingBlocks(c.segments, (p, text) => piecesMatch(pieces.get(p) ?? [], text)).size).toBe(0);
    // Every kind of block is there, the footnote too, and the image is inline as a data: URI.
    const texts = c.segments.map((s) => s.text);
    expect(texts).toContain('Employees accrue 14 days of annual leave per year, subject to approval by their manager.');
    expect(texts).toContain('Submit requests in writing.\nManagers reply within 5 working days.');
    expect(texts).toContain('At least two weeks ahead <for trips abroad>');
    expect(texts).toContain('paid at full salary');
    expect(texts).toContain('Pro rata for part-time staff.');
    expect(c.html).not.toContain('<for trips');
    expect(c.html).toMatch(/<img [^>]*src="data:image\/png;base64,/);
    expect(c.imagesOmitted).toBe(0);
    // The footnote mark and back-link are shown but are not part of any block's text.
    expect(c.html.match(/data-ed-skip/g)).toHaveLength(2);
  });

  it('DOCX: the pieces of a block carry exactly its characters, so a range maps to spans', async () => {
    const c = await content(services, ids['docx'] ?? 0);
    if (c.view !== 'docx') throw new Error(`view ${c.view}`);
    const { pieces } = docxPieces(c.html);
    const seg = c.segments.find((s) => s.text.startsWith('Employees accrue'));
    const mine = pieces.get(seg?.paragraph ?? -1) ?? [];
    // The bold run is its own piece; a collapsed space stays with the run whose white space it was.
    expect(mine.map((p) => p.s)).toEqual(['Employees accrue ', '14 days', ' of annual leave per year,', ' subject to approval by their manager.']);
    expect(mine.map((p) => p.at)).toEqual([0, 17, 24, 50]);
  });

  it('HTML: every stored segment is the text of the viewer block with its index, headings marked', async () => {
    const c = await content(services, ids['html'] ?? 0);
    if (c.view !== 'blocks') throw new Error(`view ${c.view}`);
    expect(c.blocks.map((b) => b.paragraph)).toEqual(c.segments.map((s) => s.paragraph));
    const shown = new Map(c.blocks.map((b) => [b.paragraph, b.text]));
    for (const seg of c.segments) expect(shown.get(seg.paragraph ?? -1)).toBe(seg.text);
    expect(c.blocks.filter((b) => b.headingLevel !== null).map((b) => [b.headingLevel, b.text])).toEqual([
      [1, 'Leave policy'],
      [2, 'Requests'],
    ]);
    expect(c.blocks.map((b) => b.text)).toContain('First line\nsecond line <tagged>');
    expect(c.blocks.map((b) => b.text).join(' ')).not.toContain('SCRIPT');
  });

  it('Markdown and text: every stored segment is the viewer lines it names, joined', async () => {
    for (const kind of ['markdown', 'text'] as const) {
      const c = await content(services, ids[kind] ?? 0);
      if (c.view !== 'lines') throw new Error(`view ${c.view}`);
      expect(c.segments.length).toBeGreaterThan(kind === 'text' ? 500 : 4);
      for (const seg of c.segments) {
        expect(seg.line).not.toBeNull();
        expect(c.lines.slice((seg.line ?? 0) - 1, seg.lineEnd ?? seg.line ?? 0).join('\n')).toBe(seg.text);
      }
      expect(differingLines(c.lines, c.segments).size).toBe(0);
    }
    const text = await content(services, ids['text'] ?? 0);
    if (text.view !== 'lines') throw new Error('not lines');
    expect(text.lines).toHaveLength(5000);
    expect(text.lines.slice(REPORT.quoteLine - 1, REPORT.quoteLine + 1)).toEqual(REPORT.quote);
  });

  it('serves the snapshot, labelled, when the original has changed, with the same blocks', async () => {
    const file = writeFile(path.join(services.dir, 'moving'), 'handbook-copy.docx', await makeHandbookDocx());
    const id = await ingestOne(services, file);
    const before = await content(services, id);
    fs.writeFileSync(file, 'not the same bytes any more');
    const after = await content(services, id);
    expect(after.servedFrom).toBe('snapshot');
    expect(after.path).toBe(file);
    expect(after.segments).toEqual(before.segments);
    if (after.view !== 'docx' || before.view !== 'docx') throw new Error('not docx');
    expect(after.html).toBe(before.html);
  });

  it('a conversion past the time limit says the viewer cannot show the file, not that it was not ingested', async () => {
    const own = openTestServices();
    const id = await ingestOne(own, writeFile(path.join(own.dir, 'docs'), 'slow-handbook.docx', await makeHandbookDocx()));
    const hurried = reopenTestServices(own, { ingest: { extractionTimeoutMs: 1 } });
    try {
      const reply = await hurried.dispatch('sources.content', { id });
      expect(reply).toMatchObject({ ok: false, error: { code: 'EXTRACTION_TIMEOUT' } });
      const message = reply.ok ? '' : reply.error.message;
      expect(message).toContain('slow-handbook.docx');
      expect(message).toContain('cannot be shown in the viewer');
      expect(message).not.toContain('not ingested');
    } finally {
      hurried.close();
    }
  });

  it('says FILE_MISSING when neither the original nor a snapshot is there, and refuses PDFs', async () => {
    const bare = openTestServices({ ingest: { snapshots: false } });
    try {
      const file = writeFile(path.join(bare.dir, 'docs'), 'notes.md', NOTES_MARKDOWN);
      const id = await ingestOne(bare, file);
      fs.rmSync(file);
      expect(await bare.dispatch('sources.content', { id })).toMatchObject({ ok: false, error: { code: 'FILE_MISSING' } });
    } finally {
      bare.close();
    }
    expect(await services.dispatch('sources.content', { id: ids['pdf'] })).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_TYPE' } });
    expect(await services.dispatch('sources.content', { id: 999_999 })).toMatchObject({ ok: false, error: { code: 'SOURCE_NOT_FOUND' } });
  });
});
