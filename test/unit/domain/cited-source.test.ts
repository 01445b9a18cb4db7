import { describe, expect, it } from 'vitest';
import { citedSourceName } from '../../../shared/domain/cited-source.ts';
import { firstMarked, SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../shared/search/fts-query.ts';

describe('an unknown source by the name it was cited by', () => {
  it('reads the file name, else the title, else the hash or the request document, never JSON', () => {
    expect(citedSourceName('{"file":"HR_Policy.pdf"}')).toBe('HR_Policy.pdf');
    expect(citedSourceName('{"sha256":"ab12","file":"Board.pdf","title":"Board minutes"}')).toBe('Board.pdf');
    expect(citedSourceName('{"title":"Board minutes"}')).toBe('Board minutes');
    expect(citedSourceName(`{"sha256":"${'a'.repeat(64)}"}`)).toBe('a document with SHA-256 aaaaaaaaaaaa…');
    expect(citedSourceName('{"documentIndex":0}')).toBe('document 1 of the request');
    expect(citedSourceName('Annual report 2023')).toBe('Annual report 2023');
    expect(citedSourceName('{}')).toBe('a source it did not name');
  });
});

describe('the first marked run of a highlighted text', () => {
  it('gives offsets in the text without its markers; none when nothing is marked', () => {
    const text = 'Overtime must be approved in writing by the line manager.';
    const marked = `Overtime must be ${SNIPPET_OPEN}approved in writing${SNIPPET_CLOSE} by the ${SNIPPET_OPEN}line${SNIPPET_CLOSE} manager.`;
    const m = firstMarked(marked);
    expect(m && text.slice(m.start, m.end)).toBe('approved in writing');
    expect(firstMarked(text)).toBeNull();
  });
});
