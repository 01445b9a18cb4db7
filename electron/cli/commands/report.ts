import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import { EXIT, type Command } from '../command.ts';

/** Largest report file read (a 2,000-citation report with excerpts stays well under it). */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

export const reportCommand: Command = {
  name: 'report',
  usage: 'report check REPORT.json      check that an exported report still holds: its hash, audit head, sources and quotes (exit 3 if not)',
  run: async ({ services, json, io, args }) => {
    const file = args.positionals[1];
    if (args.positionals[0] !== 'check' || !file || args.positionals.length > 2) {
      io.err('evidesk report: the one sub-command is `evidesk report check REPORT.json [--workspace W] [--json]`.');
      return EXIT.usage;
    }
    const full = path.resolve(file);
    let text: string;
    try {
      if (fs.statSync(full).size > MAX_REPORT_BYTES) throw new AppError('FILE_TOO_LARGE', `${full} is larger than a report can be (${MAX_REPORT_BYTES} bytes).`, { path: full });
      text = fs.readFileSync(full, 'utf8');
    } catch (e) {
      if (e instanceof AppError) throw e;
      throw new AppError('FILE_UNREADABLE', `${full} could not be read: ${(e as Error).message}`, { path: full });
    }
    const result = await services.exports.check(text, path.basename(full));
    if (json) io.out(JSON.stringify(result, null, 2));
    else {
      const changed = result.findings.filter((f) => !f.holds);
      const held = result.findings.filter((f) => f.holds);
      if (changed.length > 0) {
        io.out(`✖ ${changed.length} of ${result.findings.length} checks no longer hold:`);
        for (const f of changed) io.out(`  ✖ ${f.message}`);
      }
      if (held.length > 0) {
        io.out(changed.length > 0 ? 'Still holds:' : `✓ Everything the report says still holds (${held.length} checks):`);
        for (const f of held) io.out(`  ✓ ${f.message}`);
      }
    }
    return result.ok ? EXIT.ok : EXIT.error;
  },
};
