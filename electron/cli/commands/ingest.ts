import path from 'node:path';
import { call, EXIT, flagString, type Command } from '../command.ts';
import { table } from '../table.ts';

export const ingestCommand: Command = {
  name: 'ingest',
  usage: 'ingest PATH… [--password P]   add files and folders (recursive); a table per file',
  valueFlags: ['password'],
  run: async (ctx) => {
    const { services, json, io, args } = ctx;
    if (args.positionals.length === 0) {
      io.err('evidesk ingest: give at least one file or folder.');
      return EXIT.usage;
    }
    const password = flagString(ctx, 'password');
    const result = await call(services, 'sources.ingest', { paths: args.positionals, ...(password !== undefined ? { password } : {}) });
    if (json) io.out(JSON.stringify(result, null, 2));
    else {
      const rows = result.files.map((f) =>
        f.ok
          ? [path.basename(f.path), f.outcome, String(f.segmentCount), f.sha256.slice(0, 12), f.warnings.map((w) => w.code).join(', ')]
          : [path.basename(f.path), 'FAILED', '', '', `${f.error.code}: ${f.error.message}`],
      );
      io.out(table(['file', 'result', 'segments', 'sha256', 'notes'], rows));
      for (const s of result.skipped) io.out(`skipped (${s.reason.replace('_', ' ')}): ${s.path}`);
      const failed = result.files.filter((f) => !f.ok).length;
      io.out(`${result.files.length - failed} of ${result.files.length} files ingested${failed ? `, ${failed} failed` : ''}.`);
    }
    return result.files.some((f) => !f.ok) ? EXIT.someFailed : EXIT.ok;
  },
};
