import { call, EXIT, type Command } from '../command.ts';
import { resolveSource } from '../source-ref.ts';
import { table } from '../table.ts';

/** The flag as icon and word, as `evidesk sources` shows it. */
export function restrictedLabel(restricted: boolean): string {
  return restricted ? '🔒 restricted' : 'no';
}

export const restrictCommand: Command = {
  name: 'restrict',
  usage:
    'restrict SOURCE… [--off]      mark sources (ids, SHA-256 prefixes or file names) restricted: their text is never\n' +
    '                                sent to a model endpoint; --off lifts the restriction',
  run: async ({ services, json, io, args }) => {
    if (args.positionals.length === 0) {
      io.err('evidesk restrict: give one or more sources (id, SHA-256 prefix or file name), e.g. `evidesk restrict 3 9f2c41`.');
      return EXIT.usage;
    }
    const restricted = !args.flags.has('off');
    // Every reference is resolved before anything changes: a typo restricts nothing.
    const list = await call(services, 'sources.list', {});
    const ids = args.positionals.map((ref) => resolveSource(list, ref).id);
    const result = await call(services, 'sources.setRestricted', { ids, restricted });
    if (json) io.out(JSON.stringify(result, null, 2));
    else {
      io.out(table(['id', 'file', 'restricted', 'sha256'], result.sources.map((s) => [String(s.id), s.fileName, restrictedLabel(s.restricted), s.sha256.slice(0, 12)])));
      const unchanged = result.sources.length - result.changed;
      const verb = restricted ? 'restricted' : 'unrestricted';
      io.out(`${result.changed} source${result.changed === 1 ? '' : 's'} ${verb}${unchanged > 0 ? `, ${unchanged} already ${restricted ? 'were' : 'were not'} restricted` : ''}.`);
      if (restricted) io.out('Restricted sources never leave this machine: `evidesk ask --model` does not send any of their text.');
    }
    return EXIT.ok;
  },
};
