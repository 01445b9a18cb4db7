import { call, EXIT, type Command } from '../command.ts';

export const infoCommand: Command = {
  name: 'info',
  usage: 'info                          the workspace: location, schema, number of sources',
  run: async ({ services, json, io }) => {
    const info = await call(services, 'workspace.info', {});
    io.out(json ? JSON.stringify(info, null, 2) : `Workspace: ${info.path}\nSchema: ${info.schemaVersion}\nSources: ${info.sourceCount}\nEvidence Desk ${info.appVersion}`);
    return EXIT.ok;
  },
};
