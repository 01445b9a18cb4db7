// A member's head file of a shared chain (issue 13): kept per chain, database and login, so two
// databases made from one template (the same chain_id) or two logins in one folder never read
// each other's head; an edited file reads as changed, not as a head.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memberHeadPath, readMemberHead, writeMemberHead } from '../../../electron/services/audit/member-head-file.ts';
import { tempDir } from '../../support/workspace.ts';

const head = { count: 7, hash: 'a'.repeat(64), at: '2026-11-25T10:00:00.000Z' };
const who = { chainId: '6f1c2d7e-0000-4000-8000-000000000001', database: 'evidesk_team', login: 'ana' };

describe('member head files', () => {
  it('keep one head per chain, database and login', () => {
    const dir = tempDir('evidesk-heads-');
    expect(readMemberHead(dir, who)).toEqual({ state: 'missing' });
    writeMemberHead(dir, who, head);
    expect(readMemberHead(dir, who)).toEqual({ state: 'ok', head });
    expect(readMemberHead(dir, { ...who, database: 'evidesk_copy' })).toEqual({ state: 'missing' });
    expect(readMemberHead(dir, { ...who, login: 'ben' })).toEqual({ state: 'missing' });
    // Names that are not safe in a file name stay inside the heads folder.
    expect(memberHeadPath(dir, { ...who, login: '../../etc/x' }).startsWith(`${dir}/shared-audit-heads/`)).toBe(true);
  });

  it('read an edited file as changed', () => {
    const dir = tempDir('evidesk-heads-');
    writeMemberHead(dir, who, head);
    const file = memberHeadPath(dir, who);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"count": 7', '"count": 3'));
    expect(readMemberHead(dir, who)).toMatchObject({ state: 'changed' });
  });
});
