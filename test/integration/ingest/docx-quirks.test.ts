// DOCX files as Word, LibreOffice, Google Docs and document generators save them: tracked changes,
// notes, comments, headers, fields, text boxes, bidirectional runs and ruby, Strict OOXML, .docm,
// a huge embedded image. The stored text is what a reader sees in the final document, and the
// viewer's blocks carry the same text at the same offsets.
import { randomBytes } from 'node:crypto';
import { Document, ImageRun, Packer, Paragraph } from 'docx';
import { ShapeRun } from 'docx/shapes';
import { expect, it } from 'vitest';
import { describeEngines } from '../../support/engines.ts';
import { withEngineDocs } from '../../support/engine-ingest.ts';
import type { SourceContent } from '../../../shared/contract/content-schemas.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { ingestOne, storedPhrase, storedSegments, storedTexts } from '../../support/stored-text.ts';
import { makeWordPackage, para, run, type WordPackage } from '../../support/word-fixtures.ts';
import { callHandler, type TestServices } from '../../support/workspace.ts';

const ins = (inner: string) => `<w:ins w:id="1" w:author="Reviewer" w:date="2024-05-01T00:00:00Z">${inner}</w:ins>`;
const del = (text: string) => `<w:del w:id="2" w:author="Reviewer"><w:r><w:delText xml:space="preserve">${text}</w:delText></w:r></w:del>`;
const field = (instr: string, result: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve">${instr}</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${result}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
const vmlBox = (inner: string) => `<w:r><w:pict><v:shape><v:textbox><w:txbxContent>${inner}</w:txbxContent></v:textbox></v:shape></w:pict></w:r>`;
const drawingBox = (inner: string) =>
  `<w:drawing><wp:anchor><wp:docPr id="1" name="Text Box"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent>${inner}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>`;

// On both engines (issue 13): ingest writes through the engine in use, the text is read back from
// it. The viewer's HTML (sources.content) is read from the local copy only, so it is compared with
// the stored text on SQLite only (docs/postgres-store.md).
describeEngines('DOCX files from the wild', (engine) => {
  let services: TestServices;
  let docs: string;
  withEngineDocs(engine, (opened) => ({ services, docs } = opened));

  async function ingestPackage(name: string, p: WordPackage) {
    return ingestOne(services, writeFile(docs, name, await makeWordPackage(p)));
  }

  /** Every text piece the viewer's HTML places in a block is the stored text of that block at that offset. */
  async function expectViewerAgrees(sourceId: number): Promise<void> {
    if (engine.name !== 'sqlite') return;
    const content = await callHandler<SourceContent>(services, 'sources.content', { id: sourceId });
    if (content.view !== 'docx') throw new Error(`expected a DOCX view, got ${content.view}`);
    expect(content.unannotated).toBe(0);
    const stored = new Map((await storedSegments(services, sourceId)).map((s) => [s.paragraph, s.text]));
    const seen = new Set<number>();
    for (const m of content.html.matchAll(/<span data-ed-b="(\d+)" data-ed-at="(\d+)">([^<]*)<\/span>/g)) {
      const [block, at, raw] = [Number(m[1]), Number(m[2]), m[3] ?? ''];
      const piece = raw.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      expect(stored.get(block)?.slice(at, at + piece.length), `block ${block} at ${at}`).toBe(piece);
      seen.add(block);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([...stored.keys()]);
  }

  it('reads tracked changes as the final text: insertions kept; deletions, moved-from text and deleted rows dropped', async () => {
    const r = await ingestPackage('tracked.docx', {
      body: [
        para(`${run('Staff accrue ')}${ins(run('fourteen '))}${del('twelve ')}${run('days of leave.')}`),
        para(`${run('Requests go to ')}<w:moveFrom w:id="3" w:author="R">${run('HR ')}</w:moveFrom><w:moveTo w:id="4" w:author="R">${run('the line manager')}</w:moveTo>${run('.')}`),
        // A deleted paragraph mark joins the paragraph to the next one, as Word shows it.
        `<w:p><w:pPr><w:rPr><w:del w:id="5" w:author="R"/></w:rPr></w:pPr>${run('Carry-over is capped')}</w:p>${para(run(' at five days.'))}`,
        `<w:tbl><w:tr><w:tc>${para(run('Grade A: 14 days'))}</w:tc></w:tr><w:tr><w:trPr><w:del w:id="6" w:author="R"/></w:trPr><w:tc>${para(run('Grade Z: 99 days'))}</w:tc></w:tr></w:tbl>`,
        `<w:p><w:pPr><w:rPr><w:del w:id="7" w:author="R"/></w:rPr></w:pPr>${del('A paragraph deleted entirely.')}</w:p>`,
        para(run('The end.')),
      ].join(''),
    });
    expect(await storedTexts(services, r.sourceId)).toEqual([
      'Staff accrue fourteen days of leave.',
      'Requests go to the line manager.',
      'Carry-over is capped at five days.',
      'Grade A: 14 days',
      'The end.',
    ]);
    await expectViewerAgrees(r.sourceId);
  });

  it('indexes footnotes and endnotes as note blocks, but not comments, headers or footers', async () => {
    const note = (kind: 'footnote' | 'endnote', text: string) =>
      `<w:${kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:${kind}><w:${kind} w:id="1">${para(`<w:r><w:${kind}Ref/></w:r>${run(text)}`)}</w:${kind}>`;
    const r = await ingestPackage('notes.docx', {
      body: para(
        `${run('Leave accrues monthly.')}<w:r><w:footnoteReference w:id="1"/></w:r>${run(' It lapses in March.')}<w:r><w:endnoteReference w:id="1"/></w:r><w:commentRangeStart w:id="0"/>${run(' Ask HR.')}<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>`,
      ),
      footnotes: note('footnote', ' Pro rata for part-time staff.'),
      endnotes: note('endnote', ' Source: collective agreement 2024.'),
      comments: `<w:comment w:id="0" w:author="Reviewer">${para(run('Reviewer comment: check the date.'))}</w:comment>`,
      header: para(run('CONFIDENTIAL running header')),
      footer: para(run('Page footer text')),
    });
    expect(await storedTexts(services, r.sourceId)).toEqual(['Leave accrues monthly. It lapses in March. Ask HR.', 'Pro rata for part-time staff.', 'Source: collective agreement 2024.']);
    expect((await storedSegments(services, r.sourceId)).map((s) => s.block_type)).toEqual(['paragraph', 'footnote', 'footnote']);
    await expectViewerAgrees(r.sourceId);
  });

  it('keeps the results of simple and complex fields (caption numbers, dates, TOC, links), never their instructions', async () => {
    const r = await ingestPackage('fields.docx', {
      body: [
        `<w:p>${field(' TOC \\o "1-3" \\h \\z \\u ', `<w:hyperlink w:anchor="_Toc1">${run('Leave policy')}<w:r><w:tab/></w:r>${field(' PAGEREF _Toc1 \\h ', run('2'))}</w:hyperlink>`)}</w:p>`,
        para(`${run('Table ')}<w:fldSimple w:instr=" SEQ Table \\* ARABIC ">${run('3')}</w:fldSimple>${run(': Leave by grade')}`),
        para(`${run('Dated ')}<w:fldSimple w:instr=" DATE \\@ &quot;d MMMM yyyy&quot; ">${run('1 May 2024')}</w:fldSimple>${run(', see ')}${field(' HYPERLINK "https://example.org/leave" ', run('the leave page'))}${run('.')}`),
        para(`${run('Empty field:')}<w:fldSimple w:instr=" PAGE "/>${run(' done.')}`),
      ].join(''),
    });
    expect(await storedTexts(services, r.sourceId)).toEqual(['Leave policy 2', 'Table 3: Leave by grade', 'Dated 1 May 2024, see the leave page.', 'Empty field: done.']);
    expect(r.warnings).toEqual([]);
    await expectViewerAgrees(r.sourceId);
  });

  it('keeps the text of text boxes however they are drawn, once each, after their paragraph', async () => {
    const r = await ingestPackage('boxes.docx', {
      body: [
        para(`${run('VML only.')}${vmlBox(para(run('Box in VML.')))}`),
        para(
          `${run('Word 2010 and later.')}<w:r><mc:AlternateContent><mc:Choice Requires="wps">${drawingBox(para(run('Box in both forms.')))}</mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${para(run('Box in both forms.'))}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`,
        ),
        para(`${run('DrawingML only.')}<w:r>${drawingBox(para(`${run('Box with a field: ')}<w:fldSimple w:instr=" SEQ Box ">${run('7')}</w:fldSimple>`))}</w:r>`),
        para(`${run('Choice without fallback.')}<w:r><mc:AlternateContent><mc:Choice Requires="wps">${drawingBox(para(run('Box in a lone choice.')))}</mc:Choice></mc:AlternateContent></w:r>`),
      ].join(''),
    });
    expect(await storedTexts(services, r.sourceId)).toEqual([
      'VML only.',
      'Box in VML.',
      'Word 2010 and later.',
      'Box in both forms.',
      'DrawingML only.',
      'Box with a field: 7',
      'Choice without fallback.',
      'Box in a lone choice.',
    ]);
    await expectViewerAgrees(r.sourceId);
  });

  it('keeps the text box of a document generated by docx.js (DrawingML shape, no fallback)', async () => {
    const doc = new Document({
      sections: [{ children: [new Paragraph('Before the shape.'), new Paragraph({ children: [new ShapeRun({ type: 'rectangle', children: [new Paragraph('Inside the shape.')], transformation: { width: 200, height: 100 } })] }), new Paragraph('After the shape.')] }],
    });
    const r = await ingestOne(services, writeFile(docs, 'generated.docx', new Uint8Array(await Packer.toBuffer(doc))));
    expect(await storedTexts(services, r.sourceId)).toEqual(['Before the shape.', 'Inside the shape.', 'After the shape.']);
  });

  it('keeps right-to-left and direction-override runs, and the base text of ruby without its reading aid', async () => {
    const r = await ingestPackage('scripts.docx', {
      body: [
        para(`${run('Hebrew: ')}<w:dir w:val="rtl">${run('חופשה שנתית')}</w:dir>${run(' (annual leave).')}`),
        para(`${run('Code ')}<w:bdo w:val="ltr">${run('AB-123')}</w:bdo>${run(' applies.')}`),
        para(`<w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/></w:rubyPr><w:rt>${run('とうきょう')}</w:rt><w:rubyBase>${run('東京')}</w:rubyBase></w:ruby>${run('の本社')}`),
      ].join(''),
    });
    expect(await storedTexts(services, r.sourceId)).toEqual(['Hebrew: חופשה שנתית (annual leave).', 'Code AB-123 applies.', '東京の本社']);
    expect(r.warnings).toEqual([]);
    await expectViewerAgrees(r.sourceId);
  });

  it('reads headings by style name as Google Docs ("heading 1") and LibreOffice ("Heading 2") name them, through content controls and smart tags', async () => {
    const r = await ingestPackage('google-docs.docx', {
      styles: '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="H2"><w:name w:val="Heading 2"/></w:style>',
      body: [
        para(run('Leave policy'), 'Heading1'),
        para(run('Accrual'), 'H2'),
        `<w:sdt><w:sdtPr><w:alias w:val="Clause"/></w:sdtPr><w:sdtContent>${para(`${run('Leave accrues in ')}<w:smartTag w:uri="urn:schemas" w:element="place">${run('Norway')}</w:smartTag>${run(' monthly.')}`)}</w:sdtContent></w:sdt>`,
      ].join(''),
    });
    const hit = await storedPhrase(services, r.sourceId, 'Leave accrues in Norway monthly.');
    expect(JSON.parse(hit.seg.heading_path ?? '[]')).toEqual(['Leave policy', 'Accrual']);
    expect((await storedSegments(services, r.sourceId)).map((s) => s.block_type)).toEqual(['heading', 'heading', 'paragraph']);
  });

  it('reads Strict OOXML and a macro-enabled .docm (whose macros are never read)', async () => {
    const body = para(run('Retention is seven years.'));
    const strict = await ingestPackage('strict.docx', { body, strict: true });
    const docm = await ingestPackage('macros.docm', { body, macroEnabled: true });
    for (const r of [strict, docm]) {
      expect((await services.evidence.sources.get(r.sourceId))?.kind).toBe('docx');
      expect(await storedTexts(services, r.sourceId)).toEqual(['Retention is seven years.']);
    }
  });

  it('ingests a DOCX with a 40 MB photo; the viewer shows the text and leaves out the image past its budget', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(40 * 1024 * 1024)]);
    const doc = new Document({
      sections: [{ children: [new Paragraph('Before the photo.'), new Paragraph({ children: [new ImageRun({ type: 'jpg', data: photo, transformation: { width: 100, height: 100 } })] }), new Paragraph('After the photo.')] }],
    });
    const r = await ingestOne(services, writeFile(docs, 'photo.docx', new Uint8Array(await Packer.toBuffer(doc))));
    expect(await storedTexts(services, r.sourceId)).toEqual(['Before the photo.', 'After the photo.']);
    if (engine.name === 'sqlite') {
      const content = await callHandler<SourceContent>(services, 'sources.content', { id: r.sourceId });
      expect(content).toMatchObject({ view: 'docx', imagesOmitted: 1 });
      if (content.view === 'docx') expect(content.html).not.toContain('data:image');
    }
    await expectViewerAgrees(r.sourceId);
    // A ceiling, not a wait: deflating and reading 40 MB of random bytes is CPU-bound, and another
    // test file shares the two cores.
  }, 120_000);
});
