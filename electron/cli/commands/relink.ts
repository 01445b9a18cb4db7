import path from 'node:path';
import type { RelinkManyResult } from '../../../shared/contract/schemas.ts';
import { call, EXIT, flagString, type Command, type CommandContext } from '../command.ts';
import { resolveSource } from '../source-ref.ts';
import { table } from '../table.ts';

function failures(results: RelinkManyResult['results']): string[] {
  return results.flatMap((r) => (r.ok ? [] : [`✖ source ${r.id}: ${r.error.message} [${r.error.code}]`]));
}

async function relinkToPath(ctx: CommandContext, ref: string, newPath: string): Promise<number> {
  const { services, json, io, args } = ctx;
  const source = resolveSource(await call(services, 'sources.list', {}), ref);
  const result = await call(services, 'sources.relink', { id: source.id, path: path.resolve(newPath) });
  const confirm = args.flags.has('yes') && result.suggestions.length > 0;
  const more = confirm ? await call(services, 'sources.relinkMany', { items: result.suggestions.map((s) => ({ id: s.id, path: s.path })) }) : null;
  if (json) {
    io.out(JSON.stringify({ ...result, alsoRelinked: more?.results ?? [] }, null, 2));
    return more?.results.some((r) => !r.ok) ? EXIT.someFailed : EXIT.ok;
  }
  io.out(`✓ Relinked ${source.fileName} (id ${source.id}) to ${result.path}${result.previousPath ? ` (was ${result.previousPath})` : ''}.`);
  if (result.suggestions.length > 0) {
    const rows = result.suggestions.map((s) => [String(s.id), s.fileName, s.fromPath ?? '', s.path]);
    if (more) {
      const done = more.results.filter((r) => r.ok).length;
      io.out(table(['id', 'file', 'was', 'now'], rows));
      io.out(`✓ Also relinked ${done} of ${more.results.length} other missing sources found under the new folder.`);
      for (const line of failures(more.results)) io.out(line);
      return done === more.results.length ? EXIT.ok : EXIT.someFailed;
    }
    io.out(`${result.suggestions.length} other missing sources have the same bytes under the new folder:`);
    io.out(table(['id', 'file', 'was', 'found at'], rows));
    io.out('Run the same command with --yes to relink them too.');
  }
  return EXIT.ok;
}

async function relinkBySearch(ctx: CommandContext, ref: string | undefined, dir: string): Promise<number> {
  const { services, json, io } = ctx;
  let targets: { id: number; fileName: string }[];
  if (ref !== undefined) {
    const s = resolveSource(await call(services, 'sources.list', {}), ref);
    targets = [{ id: s.id, fileName: s.fileName }];
  } else {
    const report = await call(services, 'sources.check', {});
    targets = report.sources.filter((s) => s.health === 'missing');
    if (targets.length === 0) {
      io.out(json ? JSON.stringify({ dir: path.resolve(dir), relinked: [], ambiguous: [], notFound: [], failed: [] }, null, 2) : 'No source is missing: nothing to relink.');
      return EXIT.ok;
    }
  }
  const found = await call(services, 'sources.searchFolder', { ids: targets.map((t) => t.id), dir: path.resolve(dir) });
  const unique = found.results.filter((r) => r.matches.length === 1);
  const ambiguous = found.results.filter((r) => r.matches.length > 1);
  const notFound = found.results.filter((r) => r.matches.length === 0);
  const relinked = unique.length > 0 ? (await call(services, 'sources.relinkMany', { items: unique.map((r) => ({ id: r.id, path: r.matches[0] ?? '' })) })).results : [];
  const okCount = relinked.filter((r) => r.ok).length;
  const allDone = okCount === targets.length;

  if (json) {
    io.out(
      JSON.stringify(
        {
          dir: found.dir,
          examined: found.examined,
          hashed: found.hashed,
          truncated: found.truncated,
          relinked: relinked.filter((r) => r.ok),
          failed: relinked.filter((r) => !r.ok),
          ambiguous,
          notFound: notFound.map((r) => ({ id: r.id, fileName: r.fileName })),
        },
        null,
        2,
      ),
    );
    return allDone ? EXIT.ok : EXIT.someFailed;
  }
  const names = new Map(found.results.map((r) => [r.id, r.fileName]));
  const rows = [
    ...relinked.map((r) => [String(r.id), names.get(r.id) ?? '', r.ok ? '✓ relinked' : `✖ ${r.error.code}`, r.path]),
    ...ambiguous.map((r) => [String(r.id), r.fileName, `? ${r.matches.length} matches`, '']),
    ...notFound.map((r) => [String(r.id), r.fileName, '✖ not found', '']),
  ];
  io.out(table(['id', 'file', 'result', 'path'], rows));
  for (const r of ambiguous) {
    io.out(`${r.fileName} (id ${r.id}) has the same bytes at ${r.matches.length} places; pick one with \`evidesk relink ${r.id} PATH\`:`);
    for (const m of r.matches) io.out(`  ${m}`);
  }
  for (const line of failures(relinked)) io.out(line);
  io.out(
    `Searched ${found.dir}: ${found.examined} files examined, ${found.hashed} hashed${found.truncated ? ' (stopped at the search bound: search a narrower folder)' : ''}. ` +
      `${okCount} relinked, ${ambiguous.length} ambiguous, ${notFound.length} not found.`,
  );
  return allDone ? EXIT.ok : EXIT.someFailed;
}

export const relinkCommand: Command = {
  name: 'relink',
  usage:
    'relink SOURCE NEWPATH [--yes] point a moved source (id, SHA-256 prefix or file name) at its file, same bytes only;\n' +
    '                                --yes also relinks the other missing sources found under the new folder\n' +
    '  relink [SOURCE] --search DIR  find the missing sources (or SOURCE) under DIR by size, then hash; relink each one found once',
  valueFlags: ['search'],
  run: async (ctx) => {
    const { args, io } = ctx;
    const dir = flagString(ctx, 'search');
    const [ref, newPath, extra] = args.positionals;
    if (dir !== undefined) {
      if (dir === '' || newPath !== undefined) {
        io.err('evidesk relink: use `relink --search DIR` or `relink SOURCE --search DIR`.');
        return EXIT.usage;
      }
      return relinkBySearch(ctx, ref, dir);
    }
    if (ref === undefined || newPath === undefined || extra !== undefined) {
      io.err('evidesk relink: give the source and its new path (`relink SOURCE NEWPATH`), or a folder to search (`relink --search DIR`).');
      return EXIT.usage;
    }
    return relinkToPath(ctx, ref, newPath);
  },
};
