/**
 * Writes the report's outline (bookmarks) into the PDF Chromium printed, with pdf-lib. Chromium
 * makes an outline only from a tagged PDF, and tagging (building the accessibility tree of every
 * page) took about half of its print time on the export bench; untagged, it still writes a named
 * destination for every element a link of the report points at, in the catalog's /Dests. The
 * report links to each section and citation (shared/report/outline.ts), so each outline entry
 * points at its destination there. An entry whose destination is missing is left out, never
 * pointed at the wrong place.
 */
// pdf-lib (~12 MB loaded) is imported when a PDF is exported, not with this module: the command
// line and the app bundle it, and every other command (an ingest above all) would carry it.
import type { PDFArray as PdfArray, PDFDict as PdfDict, PDFRef } from 'pdf-lib';
import type { OutlineEntry } from '../../../shared/report/outline.ts';

/** Citations listed under their section are shown folded when there are more than this many. */
const OPEN_CHILDREN = 30;

/** The PDF with `entries` as its outline (replacing any it had), shown when it is opened. */
export async function addPdfOutline(pdf: Uint8Array, entries: readonly OutlineEntry[]): Promise<Uint8Array> {
  const { ParseSpeeds, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber } = await import('pdf-lib');
  // Fastest: no yielding to the event loop every 100 objects (the default), which doubles the time.
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const { context, catalog } = doc;
  const dests = catalog.lookupMaybe(PDFName.of('Dests'), PDFDict);
  const firstPage = doc.getPageCount() > 0 ? doc.getPage(0).ref : null;
  const destOf = (target: string | null): PdfArray | null => {
    if (target === null) return firstPage ? context.obj([firstPage, PDFName.of('Fit')]) : null;
    return dests?.lookupMaybe(PDFName.of(target), PDFArray) ?? null;
  };

  /** Writes the items of one level under `parent`; their first and last refs and how many items are shown open. */
  const level = (items: readonly OutlineEntry[], parent: PDFRef): { first: PDFRef; last: PDFRef; visible: number } | null => {
    const kept = items.map((e) => ({ e, dest: destOf(e.target) })).filter((x): x is { e: OutlineEntry; dest: PdfArray } => x.dest !== null);
    if (kept.length === 0) return null;
    const refs = kept.map(() => context.nextRef());
    let visible = 0;
    kept.forEach(({ e, dest }, i) => {
      const item = context.obj({ Title: PDFHexString.fromText(e.title), Parent: parent, Dest: dest }) as PdfDict;
      if (i > 0) item.set(PDFName.of('Prev'), refs[i - 1]!);
      if (i < refs.length - 1) item.set(PDFName.of('Next'), refs[i + 1]!);
      const below = level(e.children, refs[i]!);
      if (below) {
        const open = e.children.length <= OPEN_CHILDREN;
        item.set(PDFName.of('First'), below.first);
        item.set(PDFName.of('Last'), below.last);
        // Positive: shown open, with that many items visible below; negative: folded.
        item.set(PDFName.of('Count'), PDFNumber.of(open ? below.visible : -below.visible));
        if (open) visible += below.visible;
      }
      context.assign(refs[i]!, item);
      visible++;
    });
    return { first: refs[0]!, last: refs[refs.length - 1]!, visible };
  };

  const rootRef = context.nextRef();
  const top = level(entries, rootRef);
  if (!top) return pdf;
  context.assign(rootRef, context.obj({ Type: 'Outlines', First: top.first, Last: top.last, Count: top.visible }));
  catalog.set(PDFName.of('Outlines'), rootRef);
  catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
  return doc.save({ useObjectStreams: false, objectsPerTick: Infinity, updateFieldAppearances: false });
}
