import type { CheckedHealth } from '../../../shared/contract/schemas.ts';
import { call, EXIT, type SharedCommand } from '../command.ts';
import { table } from '../table.ts';

/** Icon and word together: the status must read without colour (and there is none here). */
export const HEALTH_LABEL: Record<CheckedHealth, string> = { ok: '✓ ok', modified: '✎ modified', missing: '✖ missing' };

export const checkCommand: SharedCommand = {
  name: 'check',
  shared: true,
  usage: 'check                         source health: is every file still there, unchanged? (exit 1 if not)',
  run: async ({ dispatch, engine, json, io }) => {
    const report = await call({ dispatch }, 'sources.check', {});
    const bad = report.sources.filter((s) => s.health !== 'ok');
    if (json) io.out(JSON.stringify(report, null, 2));
    else {
      io.out(table(['id', 'file', 'health', 'citations', 'path'], report.sources.map((s) => [String(s.id), s.fileName, HEALTH_LABEL[s.health], String(s.citations), s.path ?? ''])));
      for (const s of bad) io.out(`${HEALTH_LABEL[s.health]} ${s.fileName} (id ${s.id}): ${s.detail}`);
      const { ok, modified, missing } = report.counts;
      io.out(`${report.sources.length} sources checked in ${report.durationMs.toFixed(0)} ms: ${ok} ok, ${modified} modified, ${missing} missing.`);
      // On a shared workspace the paths are this member's own; relinking is not on it yet.
      if (missing > 0 && engine === 'postgres') io.out('On a shared workspace these are your own paths to the files: a source none of your paths holds is missing for you.');
      else if (missing > 0) io.out('Relink a missing file with `evidesk relink SOURCE NEWPATH`, or find them all with `evidesk relink --search DIR`.');
    }
    return bad.length > 0 ? EXIT.someFailed : EXIT.ok;
  },
};
