import os from 'node:os';
import path from 'node:path';

export const APP_NAME = 'Evidence Desk';

/** The platform's user-data folder, the same one Electron's app.getPath('userData') gives. */
export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_NAME);
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), APP_NAME);
}

/** `--workspace DIR` wins, then EVIDESK_WORKSPACE, then the default inside the user-data folder. */
export function resolveWorkspaceDir(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const i = argv.indexOf('--workspace');
  const fromFlag = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--workspace='))?.slice('--workspace='.length);
  const chosen = fromFlag ?? env.EVIDESK_WORKSPACE;
  return path.resolve(chosen && chosen.length > 0 ? chosen : path.join(userDataDir(env), 'workspace'));
}
