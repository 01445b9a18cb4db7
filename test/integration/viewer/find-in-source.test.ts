// sources.find: the reader's find runs over the stored page text in real SQLite, and its offsets
// are the stored ones (the text layer is checked against them), with printed page labels.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindResult } from '../../../shared/contract/reader-schemas.ts';
import type { PageText } from '../../../shared/contract/schemas.ts';
import { writeFile } from '../../support/pdf-fixtures.ts';
import { makeReaderPdf } from '../../support/reader-fixtures.ts';
import { callHandler, openTestServices } from '../../support/workspace.ts';

describe('sources.find over a PDF’s stored pages', () => {
  let services: ReturnType<typeof openTestServices>;
  let id: number;

  beforeAll(async () => {
    services = openTestServices();
    const pages = Array.from({ length: 8 }, (_, i) => [`Page ${i + 1} of the handbook.`, i % 3 === 0 ? 'Leave is booked in the staff portal.' : 'Nothing to see.']);
    const file = writeFile(path.join(services.dir, 'docs'), 'handbook.pdf', await makeReaderPdf({ pages, frontMatter: 2 }));
    const [r] = (await services.ingest.ingest({ paths: [file] })).files;
    if (!r?.ok) throw new Error(JSON.stringify(r));
    id = r.sourceId;
  });
  afterAll(() => services.close());

  it('lists every hit by page and printed label, at offsets that slice the stored page text to the hit', async () => {
    const r = await callHandler<FindResult>(services, 'sources.find', { id, query: 'STAFF portal' });
    expect(r.hits.map((h) => [h.page, h.pageLabel])).toEqual([
      [1, 'i'],
      [4, '2'],
      [7, '5'],
    ]);
    for (const hit of r.hits) {
      const stored = await callHandler<PageText>(services, 'sources.pageText', { id, page: hit.page });
      expect(stored.text.slice(hit.start, hit.end)).toBe('staff portal');
    }
  });

  it('says so in a coded error for a source that does not exist, and refuses an empty query', async () => {
    await expect(callHandler(services, 'sources.find', { id: 9999, query: 'x' })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await expect(callHandler(services, 'sources.find', { id, query: '' })).rejects.toMatchObject({ code: expect.stringMatching(/INVALID|VALIDATION/) });
  });
});
