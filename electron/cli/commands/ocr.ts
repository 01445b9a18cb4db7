import { call, EXIT, flagString, type Command } from '../command.ts';
import { resolveSource } from '../source-ref.ts';
import { table } from '../table.ts';

/** `--ocr-lang eng+deu` (or eng,deu) as tesseract codes. */
export function ocrLanguages(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(/[+,\s]+/).filter((c) => c !== '');
}

export const ocrCommand: Command = {
  name: 'ocr',
  usage:
    'ocr SOURCE… [--lang eng+deu] [--password P]   read the scanned pages of PDF sources again with OCR (after\n' +
    '                                --no-ocr, or in other languages: eng, deu, fra, chi_sim are installed)',
  valueFlags: ['lang', 'password'],
  run: async (ctx) => {
    const { services, json, io, args } = ctx;
    if (args.positionals.length === 0) {
      io.err('evidesk ocr: give one or more PDF sources (id, SHA-256 prefix or file name), e.g. `evidesk ocr scan.pdf --lang eng+deu`.');
      return EXIT.usage;
    }
    const list = await call(services, 'sources.list', {});
    const ids = args.positionals.map((ref) => resolveSource(list, ref).id);
    const languages = ocrLanguages(flagString(ctx, 'lang'));
    const password = flagString(ctx, 'password');
    const results = [];
    for (const id of ids) {
      results.push(await call(services, 'sources.ocr', { id, ...(languages ? { languages } : {}), ...(password !== undefined ? { password } : {}) }));
    }
    if (json) io.out(JSON.stringify(results, null, 2));
    else {
      const name = (id: number) => list.find((s) => s.id === id)?.fileName ?? String(id);
      const rows = results.map((r) => {
        const mean = r.confidence.length > 0 ? Math.round(r.confidence.reduce((sum, c) => sum + (c.confidence ?? 0), 0) / r.confidence.length) : null;
        return [String(r.sourceId), name(r.sourceId), `${r.recognisedPages.length} of ${r.scannedPages.length}`, mean === null ? '' : `${mean}%`, r.method ?? ''];
      });
      io.out(table(['id', 'file', 'scanned pages read', 'mean confidence', 'method'], rows));
      if (results.every((r) => r.scannedPages.length === 0)) io.out('None of these sources has scanned pages: every page has a text layer, so there is nothing to OCR.');
    }
    return EXIT.ok;
  },
};
