/**
 * Where a running browser-mode host can be found (issue 17: `evidesk open LINK` hands the link to it):
 * `host.json` beside the workspace database, readable by its owner only, removed when the host
 * stops. It holds the session token, as the URL the host prints does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const HOST_FILE = 'host.json';

const HostFile = z.strictObject({ port: z.number().int().min(1).max(65535), token: z.string().min(16).max(200), pid: z.number().int().positive(), startedAt: z.string() });
export type HostFile = z.infer<typeof HostFile>;

export function writeHostFile(workspaceDir: string, host: { port: number; token: string }): string {
  const file = path.join(workspaceDir, HOST_FILE);
  const body: HostFile = { port: host.port, token: host.token, pid: process.pid, startedAt: new Date().toISOString() };
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${JSON.stringify(body)}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

/** Removes the file if this process wrote it (another host may have started since). */
export function removeHostFile(workspaceDir: string): void {
  const found = readHostFile(workspaceDir);
  if (found?.pid === process.pid) fs.rmSync(path.join(workspaceDir, HOST_FILE), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running host of a workspace, or null (no file, a damaged one, or its process is gone). */
export function readHostFile(workspaceDir: string): HostFile | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(workspaceDir, HOST_FILE), 'utf8'));
  } catch {
    return null;
  }
  const parsed = HostFile.safeParse(raw);
  return parsed.success && alive(parsed.data.pid) ? parsed.data : null;
}
