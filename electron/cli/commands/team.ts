import { EXIT, type DetachedCommand } from '../command.ts';
import { accessLevelOf, grantInProject, revokeInProject } from '../../services/store/postgres/team.ts';
import { connectOwner } from './shared-database.ts';

export const teamCommand: DetachedCommand = {
  name: 'team',
  usage: 'team grant|revoke ROLE MEMBER [--project P] --database URL   give or take a member\'s access level (agent, reviewer, auditor, admin) in a shared workspace',
  valueFlags: ['project', 'database', 'password'],
  detached: true,
  run: async ({ args, io, json, env }) => {
    const [verb, role, member, ...rest] = args.positionals;
    if ((verb !== 'grant' && verb !== 'revoke') || !role || !member || rest.length > 0) {
      io.err('evidesk team: `evidesk team grant ROLE MEMBER [--project P] [--password PW]` or `evidesk team revoke ROLE MEMBER [--project P]`, with --database postgres://… (or $EVIDESK_DATABASE_URL) naming the shared database as its owner.');
      return EXIT.usage;
    }
    const url = args.flags.get('database');
    const database = typeof url === 'string' ? url : env.EVIDESK_DATABASE_URL;
    if (!database) {
      io.err('evidesk team: give the shared database with --database postgres://… (or $EVIDESK_DATABASE_URL).');
      return EXIT.usage;
    }
    const level = accessLevelOf(role);
    const p = args.flags.get('project');
    const project = typeof p === 'string' ? p : undefined;
    const pw = args.flags.get('password');
    const owner = await connectOwner(database);
    try {
      const where = project === undefined ? '' : ` in the project "${project}"`;
      if (verb === 'grant') {
        const r = await grantInProject(owner, { login: member, level, ...(project === undefined ? {} : { project }), ...(typeof pw === 'string' ? { password: pw } : {}) });
        if (json) io.out(JSON.stringify({ ok: true, action: 'grant', member, role: level, project: project ?? null, createdLogin: r.createdLogin }, null, 2));
        else io.out(`✓ ${member} is now ${level === 'agent' || level === 'auditor' || level === 'admin' ? 'an' : 'a'} ${level}${where}${r.createdLogin ? ' (a new login: give it a password with --password, or set one in PostgreSQL)' : ''}.`);
      } else {
        const r = await revokeInProject(owner, { login: member, level, ...(project === undefined ? {} : { project }) });
        if (json) io.out(JSON.stringify({ ok: true, action: 'revoke', member, role: level, project: project ?? null, levelRevoked: r.levelRevoked }, null, 2));
        else io.out(`✓ ${member} is no longer ${level === 'agent' || level === 'auditor' || level === 'admin' ? 'an' : 'a'} ${level}${where}${r.levelRevoked ? `; the database now refuses every ${level}'s write from this login` : `; it keeps the ${level} level in other projects`}.`);
      }
      return EXIT.ok;
    } finally {
      await owner.end().catch(() => undefined);
    }
  },
};
