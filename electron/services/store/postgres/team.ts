/**
 * Managing a shared workspace's members, done by its owner (the role that ran the migrations and
 * may create roles): a project namespace per engagement, a login role per member granted one
 * access level, and the projects it belongs to. The base of `evidesk team grant/revoke` (issue 13).
 */
import type pg from 'pg';
import { groupRole, type AccessLevel } from './schema-access.ts';

export async function ensureProject(owner: pg.ClientBase, key: string, name: string, now = new Date().toISOString()): Promise<void> {
  await owner.query('INSERT INTO projects (key, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [key, name, now]);
}

export interface MemberGrant {
  login: string;
  /** Set when the login role is made here; an existing role keeps its password. */
  password?: string;
  level: AccessLevel;
  projects: readonly string[];
}

/** Makes the login role if it does not exist, grants its level and the database, and lists it in its projects. */
export async function grantMember(owner: pg.ClientBase, m: MemberGrant): Promise<void> {
  const login = owner.escapeIdentifier(m.login);
  const exists = (await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [m.login])).rowCount !== 0;
  if (!exists) {
    await owner.query(`CREATE ROLE ${login} LOGIN${m.password === undefined ? '' : ` PASSWORD ${owner.escapeLiteral(m.password)}`}`);
  }
  const db = (await owner.query<{ db: string }>('SELECT current_database() AS db')).rows[0]?.db ?? '';
  await owner.query(`GRANT CONNECT ON DATABASE ${owner.escapeIdentifier(db)} TO ${login}`);
  await owner.query(`GRANT ${groupRole(m.level)} TO ${login}`);
  for (const project of m.projects) {
    await owner.query(
      'INSERT INTO project_members (project_key, member, role) VALUES ($1, $2, $3) ON CONFLICT (project_key, member) DO UPDATE SET role = excluded.role',
      [project, m.login, m.level],
    );
  }
}

/** Takes a level and every project membership from a member (the login role stays, owning nothing). */
export async function revokeMember(owner: pg.ClientBase, login: string, level: AccessLevel): Promise<void> {
  await owner.query(`REVOKE ${groupRole(level)} FROM ${owner.escapeIdentifier(login)}`);
  await owner.query('DELETE FROM project_members WHERE member = $1', [login]);
}
