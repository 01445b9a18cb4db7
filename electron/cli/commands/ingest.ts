import path from 'node:path';
import { call, EXIT, flagString, type SharedCommand } from '../command.ts';
import { skippedSentence } from '../../../shared/domain/skipped.ts';
import { table } from '../table.ts';
import { isWebAddress, registerUrls, webRow } from './ingest-web.ts';
import { ocrLanguages } from './ocr.ts';

export const ingestCommand: SharedCommand = {
  name: 'ingest',
  // On a shared database (issue 13) files go into the shared pool as this member (admins add
  // sources); web pages are refused there, each as a row of its own.
  shared: true,
  usage:
    'ingest PATH|URL… [--password P] [--follow-symlinks] [--no-ocr] [--ocr-lang eng+deu]   add files and folders (recursive)\n' +
    '                                and archive web pages; a table per file; scanned PDF pages are read by OCR (English unless --ocr-lang)',
  valueFlags: ['password', 'ocr-lang'],
  run: async (ctx) => {
    const { dispatch, json, io, args } = ctx;
    if (args.positionals.length === 0) {
      io.err('evidesk ingest: give at least one file or folder.');
      return EXIT.usage;
    }
    const password = flagString(ctx, 'password');
    const followSymlinks = args.flags.has('follow-symlinks');
    const noOcr = args.flags.has('no-ocr');
    const languages = ocrLanguages(flagString(ctx, 'ocr-lang'));
    // http(s) addresses are fetched once and archived (issue 11); everything else is a path.
    const urls = args.positionals.filter(isWebAddress);
    const paths = args.positionals.filter((p) => !isWebAddress(p));
    const web = await registerUrls({ dispatch }, urls);
    const result =
      paths.length > 0
        ? await call({ dispatch }, 'sources.ingest', {
            paths,
            ...(password !== undefined ? { password } : {}),
            ...(followSymlinks ? { followSymlinks } : {}),
            ...(noOcr ? { ocr: false } : {}),
            ...(languages ? { ocrLanguages: languages } : {}),
          })
        : { batchId: '', files: [], skipped: [], cancelled: false };
    if (json) io.out(JSON.stringify(urls.length > 0 ? { ...result, urls: web } : result, null, 2));
    else {
      const rows = result.files.map((f) =>
        f.ok
          ? [path.basename(f.path), f.outcome, String(f.segmentCount), f.sha256.slice(0, 12), f.warnings.map((w) => w.code).join(', ')]
          : [path.basename(f.path), 'FAILED', '', '', `${f.error.code}: ${f.error.message}`],
      );
      for (const w of web) rows.push(webRow(w));
      // Skipped entries are rows too, each with its reason as a sentence (the code is in --json).
      for (const s of result.skipped) rows.push([path.basename(s.path), 'skipped', '', '', skippedSentence(s)]);
      io.out(table(['file', 'result', 'segments', 'sha256', 'notes'], rows));
      const failed = result.files.filter((f) => !f.ok).length;
      const skipped = result.skipped.length;
      if (result.files.length > 0 || paths.length > 0) {
        io.out(`${result.files.length - failed} of ${result.files.length} files ingested${failed ? `, ${failed} failed` : ''}${skipped ? `, ${skipped} skipped` : ''}.`);
      }
      if (web.length > 0) {
        const webFailed = web.filter((w) => !w.ok).length;
        io.out(`${web.length - webFailed} of ${web.length} web pages archived${webFailed ? `, ${webFailed} failed` : ''}.`);
      }
      if (result.skipped.some((s) => s.reason === 'link_outside')) {
        io.out('Links that lead out of the folders you chose were not followed; run again with --follow-symlinks to follow them (never to pipes, sockets or devices).');
      }
    }
    return result.files.some((f) => !f.ok) || web.some((w) => !w.ok) ? EXIT.someFailed : EXIT.ok;
  },
};
