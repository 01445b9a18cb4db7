/**
 * Managing a shared workspace's members, done by its owner (the role that ran the migrations and
 * may create roles): a project namespace per engagement, a login role per member granted one
 * access level, and the projects it belongs to. The base of `evidesk team grant/revoke` (issue 13).
 */
import type pg from 'pg';
import { AppError } from '../../../../shared/contract/errors.ts';
import { ACCESS_LEVELS, groupRole, type AccessLevel } from './schema-access.ts';

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

function teamError(message: string, details: Record<string, unknown>): AppError {
  return new AppError('TEAM_CHANGE_INVALID', message, details);
}

/** The access level a word names (TEAM_CHANGE_INVALID for any other word). */
export function accessLevelOf(word: string): AccessLevel {
  const level = ACCESS_LEVELS.find((l) => l === word);
  if (!level) throw teamError(`"${word}" is not an access level: use one of ${ACCESS_LEVELS.join(', ')}.`, { role: word, levels: ACCESS_LEVELS });
  return level;
}

/** Levels that work within projects (auditors and admins see every project). */
const PROJECT_LEVELS: readonly AccessLevel[] = ['agent', 'reviewer'];

/**
 * `evidesk team grant`: gives a member a level, in a project for agents and reviewers (the project
 * must exist). One transaction: the membership and the role's grant land together or not at all.
 */
export async function grantInProject(owner: pg.ClientBase, m: { login: string; level: AccessLevel; project?: string; password?: string }): Promise<{ createdLogin: boolean }> {
  if (PROJECT_LEVELS.includes(m.level) && m.project === undefined) {
    throw teamError(`An ${m.level} works within a project: name it with --project.`, { role: m.level });
  }
  await owner.query('BEGIN');
  try {
    if (m.project !== undefined && (await owner.query('SELECT 1 FROM projects WHERE key = $1', [m.project])).rowCount === 0) {
      throw teamError(`There is no project "${m.project}" in the shared workspace.`, { project: m.project });
    }
    const createdLogin = (await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [m.login])).rowCount === 0;
    await grantMember(owner, { login: m.login, level: m.level, projects: m.project === undefined ? [] : [m.project], ...(m.password === undefined ? {} : { password: m.password }) });
    await owner.query('COMMIT');
    return { createdLogin };
  } catch (e) {
    await owner.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/**
 * `evidesk team revoke`: takes a member's level in a project (or, for an auditor or admin, the
 * level itself). The group role goes once no project keeps the member at that level, so the
 * database refuses its next write of that kind at once.
 */
export async function revokeInProject(owner: pg.ClientBase, m: { login: string; level: AccessLevel; project?: string }): Promise<{ levelRevoked: boolean }> {
  await owner.query('BEGIN');
  try {
    if ((await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [m.login])).rowCount === 0) {
      throw teamError(`There is no member "${m.login}" on this server.`, { member: m.login });
    }
    if (m.project !== undefined) {
      const gone = await owner.query('DELETE FROM project_members WHERE project_key = $1 AND member = $2 AND role = $3', [m.project, m.login, m.level]);
      if (gone.rowCount === 0) throw teamError(`${m.login} is not ${m.level === 'agent' || m.level === 'auditor' || m.level === 'admin' ? 'an' : 'a'} ${m.level} in the project "${m.project}".`, { member: m.login, role: m.level, project: m.project });
    } else if (PROJECT_LEVELS.includes(m.level)) {
      throw teamError(`An ${m.level} is revoked per project: name it with --project.`, { role: m.level });
    }
    const left = (await owner.query('SELECT 1 FROM project_members WHERE member = $1 AND role = $2', [m.login, m.level])).rowCount ?? 0;
    const holds = (await owner.query(`SELECT pg_has_role($1, $2, 'MEMBER') AS yes`, [m.login, groupRole(m.level)])).rows[0]?.yes === true;
    const levelRevoked = left === 0 && holds;
    if (levelRevoked) await owner.query(`REVOKE ${groupRole(m.level)} FROM ${owner.escapeIdentifier(m.login)}`);
    else if (m.project === undefined) throw teamError(`${m.login} does not hold the ${m.level} level.`, { member: m.login, role: m.level });
    await owner.query('COMMIT');
    return { levelRevoked };
  } catch (e) {
    await owner.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
