import path from 'node:path';

/** The folder, inside the workspace, that documents uploaded in browser mode are kept in. */
export const INBOX_DIR = 'inbox';

export function inboxDir(workspaceDir: string): string {
  return path.join(workspaceDir, INBOX_DIR);
}
