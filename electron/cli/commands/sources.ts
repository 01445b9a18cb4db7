import { call, EXIT, type Command } from '../command.ts';
import { table } from '../table.ts';
import { restrictedLabel } from './restrict.ts';

export const sourcesCommand: Command = {
  name: 'sources',
  usage: 'sources                       list the workspace\'s sources',
  run: async ({ services, json, io }) => {
    const list = await call(services, 'sources.list', {});
    if (json) io.out(JSON.stringify(list, null, 2));
    else {
      io.out(
        table(
          ['id', 'file', 'kind', 'pages', 'health', 'restricted', 'sha256', 'path'],
          list.map((s) => [String(s.id), s.fileName, s.kind, String(s.pageCount ?? s.segmentCount), s.health, restrictedLabel(s.restricted), s.sha256.slice(0, 12), s.path ?? '']),
        ),
      );
    }
    return EXIT.ok;
  },
};
