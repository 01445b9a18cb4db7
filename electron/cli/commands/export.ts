import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import { BibStyle, ExportFormat, ExportInput } from '../../../shared/contract/export-schemas.ts';
import { call, EXIT, type Command } from '../command.ts';
import type { Services } from '../../services/create-services.ts';
import { chromiumPrinter } from '../../services/export/pdf-print.ts';

/**
 * An answer named on the command line: its id, or the name of the file it was imported from
 * (answers keep their origin as `import:FILE`; the newest import of that name wins).
 */
export async function resolveAnswer(services: Services, ref: string): Promise<{ id: number; note: string | null }> {
  if (/^\d+$/.test(ref)) return { id: Number(ref), note: null };
  const name = path.basename(ref);
  const matches = (await call(services, 'answers.list', {})).filter((a) => a.origin === `import:${name}`);
  const newest = matches[0];
  if (!newest) throw new AppError('ANSWER_NOT_FOUND', `No answer in this workspace was imported from a file named ${name}. Give the answer's id, or the file name it was imported from.`, { answer: ref });
  return { id: newest.id, note: matches.length > 1 ? `${matches.length} answers were imported from ${name}; exporting the newest, answer ${newest.id}.` : null };
}

export const exportCommand: Command = {
  name: 'export',
  usage:
    'export ANSWER --format md|html|pdf|json|csv|bib --out FILE [--style apa|harvard|ieee|bibtex] [--only-accepted] [--no-excerpts] [--no-notes] [--reviewer NAME]\n' +
    '                              write a verified report of a stored answer (by id or the file it was imported from)',
  valueFlags: ['format', 'out', 'style', 'reviewer'],
  run: async ({ services, json, io, args, env }) => {
    const ref = args.positionals[0];
    const format = ExportFormat.safeParse(args.flags.get('format'));
    const out = args.flags.get('out');
    const styleFlag = args.flags.get('style');
    const style = styleFlag === undefined ? undefined : BibStyle.safeParse(styleFlag);
    if (!ref || args.positionals.length > 1 || !format.success || typeof out !== 'string' || out === '' || (style !== undefined && !style.success)) {
      io.err('evidesk export: give one answer (id or imported file name), --format md|html|pdf|json|csv|bib and --out FILE; --style is apa, harvard, ieee or bibtex.');
      return EXIT.usage;
    }
    const reviewer = args.flags.get('reviewer');
    const { id, note } = await resolveAnswer(services, ref);
    // Straight to the service rather than the dispatcher: a PDF is printed with the Chromium this
    // command's environment names (CHROMIUM_PATH), which the shared services do not see.
    const input = ExportInput.parse({
      id,
      format: format.data,
      path: path.resolve(out),
      ...(style?.success ? { style: style.data } : {}),
      onlyAccepted: args.flags.has('only-accepted'),
      excerpts: !args.flags.has('no-excerpts'),
      notes: !args.flags.has('no-notes'),
      ...(typeof reviewer === 'string' ? { reviewer } : {}),
    });
    const result = await services.exports.export(input, chromiumPrinter(env));
    if (json) io.out(JSON.stringify(result, null, 2));
    else {
      if (note) io.out(note);
      if (result.verifiedFirst) io.out(`Answer ${id} had no verification run; it was verified first (run ${result.runId}).`);
      const s = result.summary;
      io.out(`Wrote ${result.path} (${result.bytes} bytes): ${s.included} of ${s.total} citations, ${s.unresolved} unresolved.`);
      if (s.missingSources > 0) io.out(`${s.missingSources} source file${s.missingSources === 1 ? ' was' : 's were'} missing; the report says so and relies on the workspace's snapshots.`);
      io.out(`Report content hash ${result.contentHash}.`);
    }
    return EXIT.ok;
  },
};
