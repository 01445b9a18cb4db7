// A PDF part's geometry, as it arrives from an extraction child (Node's advanced IPC serialisation
// is v8.serialize / v8.deserialize), is a view into the whole reply; ownGeometry gives each page
// a buffer of its own with the same numbers, so the reply can be freed (issue 16 item 5).
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { PdfPart } from '../../../electron/services/ingest/extractors/pdf.ts';
import { ownGeometry } from '../../../electron/services/ingest/pooled-extract.ts';
import { ITEM_FIELDS } from '../../../electron/services/ingest/text-geometry.ts';

function part(pages: number): PdfPart {
  const segments = Array.from({ length: pages }, (_, i) => {
    const items = 40 + i;
    const textItems = Float64Array.from({ length: items * ITEM_FIELDS }, (_, k) => k * 0.5 + i);
    return { text: 'x'.repeat(items), page: i + 1, itemStarts: Array.from({ length: items }, (_, k) => k), textItems, blockType: 'page' as const };
  });
  return { pageCount: pages, title: null, segments, scannedPages: [], failedPages: [], unusablePages: [], formFields: [] };
}

describe('ownGeometry', () => {
  it('gives every page of a part that crossed from a child a geometry buffer of its own, with the same numbers', () => {
    const sent = part(30);
    const received = v8.deserialize(v8.serialize(sent)) as PdfPart;
    // What the IPC hands over: views into a buffer larger than each page's geometry.
    expect(received.segments.some((s) => s.textItems && s.textItems.buffer.byteLength > s.textItems.byteLength)).toBe(true);
    const owned = ownGeometry(received);
    owned.segments.forEach((seg, i) => {
      expect(seg.textItems?.byteOffset).toBe(0);
      expect(seg.textItems?.buffer.byteLength).toBe(seg.textItems?.byteLength);
      expect(Array.from(seg.textItems ?? [])).toEqual(Array.from(sent.segments[i]?.textItems ?? []));
    });
  });

  it('leaves pages without geometry (scans, blank pages) as they are', () => {
    const p = part(2);
    delete p.segments[1]!.textItems;
    expect(ownGeometry(p).segments[1]!.textItems).toBeUndefined();
  });
});
