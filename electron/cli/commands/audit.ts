import { call, EXIT, type SharedCommand } from '../command.ts';

/** What each kind of break is called on the command line. */
const KIND_LABEL: Record<string, string> = {
  edited: 'edited',
  removed: 'removed',
  inserted: 'inserted',
  reordered: 'reordered',
  truncated: 'truncated',
  rewritten_tail: 'rewritten tail',
  head_changed: 'head file changed',
  head_missing: 'head file missing',
  unanchored: 'entries after the anchored head',
};

export const auditCommand: SharedCommand = {
  name: 'audit',
  shared: true,
  usage: 'audit verify                  walk the audit chain over the whole record and check its head file (exit 3 if broken)',
  run: async ({ dispatch, engine, json, io, args }) => {
    if (args.positionals[0] !== 'verify' || args.positionals.length > 1) {
      io.err('evidesk audit: the one sub-command is `evidesk audit verify [--json]`.');
      return EXIT.usage;
    }
    const check = await call({ dispatch }, 'audit.verify', {});
    if (json) io.out(JSON.stringify(check, null, 2));
    else if (check.ok) {
      // A shared chain's end is held to the head the database records and to this member's own head file.
      const anchor = engine === 'postgres' ? "anchored in the shared head record and in this member's head file" : 'anchored in the head file';
      io.out(`✓ The ${engine === 'postgres' ? 'shared ' : ''}audit chain is intact: ${check.rows} entries cover ${check.evidenceRows ?? 0} evidence rows; head ${check.head} (${anchor}).`);
    } else {
      const b = check.brokenAt;
      io.out(`✖ The ${engine === 'postgres' ? 'shared ' : ''}audit chain is broken (${KIND_LABEL[b?.kind ?? ''] ?? 'broken'}): ${b?.reason ?? 'unknown'}`);
      const where = [b?.seq !== undefined ? `entry ${b.seq}` : '', b && b.id > 0 ? `audit_log id ${b.id}` : '', b?.table ? `${b.table} id ${b.rowId ?? '?'}` : ''].filter(Boolean);
      if (where.length > 0) io.out(`  at ${where.join(', ')}`);
      io.out(`${check.rows} entries checked; the record was changed outside Evidence Desk. Restore the workspace from a backup you trust.`);
    }
    return check.ok ? EXIT.ok : EXIT.error;
  },
};
