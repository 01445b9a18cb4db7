import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../shared/contract/errors.ts';
import type { Platform } from '../services/platform.ts';
import { createServices, type Services } from '../services/create-services.ts';
import { resolveWorkspaceDir } from '../services/workspace/location.ts';
import { parseArgs } from './args.ts';
import { EXIT, type CliIo } from './command.ts';
import { COMMANDS } from './commands/index.ts';
import { commandNotShared, databaseChoice, openSharedWorkspace } from './shared-workspace.ts';
import type { SharedServices } from '../services/shared-services.ts';

export { EXIT, type CliIo };

function usage(): string {
  return `evidesk: Evidence Desk on the command line, over the same workspaces as the app.

Usage: evidesk <command> [options]
${COMMANDS.map((c) => `  ${c.usage}`).join('\n')}

Every command takes --workspace DIR (default: $EVIDESK_WORKSPACE, else the app's user-data folder)
and --json (machine-readable output). --database postgres://… (default: $EVIDESK_DATABASE_URL) runs
ingest (files; an admin adds sources), search, check, audit verify and mcp (its reading tools) on a
shared workspace as the member the URL names; other commands refuse while one is given. Exit codes: 0 all done, 1 some files or items
failed, 2 usage error, 3 the command failed.`;
}

/** Flags every command takes with a value. */
const GLOBAL_VALUE_FLAGS = ['workspace', 'database'];

const cliPlatform: Platform = {
  mode: 'cli',
  chooseFiles: () => Promise.reject(new AppError('DIALOG_UNAVAILABLE', 'The command line has no file dialogs: give paths as arguments.')),
  chooseSavePath: () => Promise.reject(new AppError('DIALOG_UNAVAILABLE', 'The command line has no save dialog: give the path with --out.')),
  revealInFolder: () => Promise.reject(new AppError('DIALOG_UNAVAILABLE', 'The command line cannot reveal files.')),
};

export async function runCli(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // The command word is the first positional once the global flags' values are set aside
  // (`evidesk --workspace DIR check` must not read DIR as the command).
  const first = parseArgs(argv, new Set(GLOBAL_VALUE_FLAGS)).command;
  const command = COMMANDS.find((c) => c.name === first);
  const args = parseArgs(argv, new Set([...GLOBAL_VALUE_FLAGS, ...(command?.valueFlags ?? [])]));
  const json = args.flags.has('json');
  if (!args.command || args.command === 'help' || args.flags.has('help')) {
    io.out(usage());
    return args.command ? EXIT.ok : EXIT.usage;
  }
  if (!command) {
    io.err(`evidesk: unknown command "${args.command}".\n\n${usage()}`);
    return EXIT.usage;
  }
  const workspaceFlag = args.flags.get('workspace');
  const workspaceDir = resolveWorkspaceDir(typeof workspaceFlag === 'string' ? ['--workspace', workspaceFlag] : [], env);
  let services: Services | undefined;
  let shared: SharedServices | undefined;
  try {
    if ('detached' in command) return await command.run({ args, json, io, env });
    // A shared database, when one is asked for: never a local workspace in its place (issue 13).
    const database = databaseChoice(args, env);
    if (database) {
      if (!('shared' in command)) throw commandNotShared(command.name, database);
      shared = await openSharedWorkspace(database, workspaceDir);
      return await command.run({ args, json, io, env, engine: 'postgres', dispatch: shared.dispatch, evidence: shared.evidence, warmCite: shared.warmCite });
    }
    services = createServices(cliPlatform, workspaceDir);
    if ('shared' in command) return await command.run({ args, json, io, env, engine: 'sqlite', dispatch: services.dispatch, services });
    return await command.run({ args, json, services, io, env });
  } catch (e) {
    const err = e instanceof AppError ? e.toData() : { code: 'INTERNAL', message: (e as Error).message };
    if (json) io.out(JSON.stringify({ ok: false, error: err }, null, 2));
    else io.err(`evidesk ${args.command}: ${err.message} [${err.code}]`);
    return EXIT.error;
  } finally {
    services?.close();
    await shared?.close().catch(() => undefined);
  }
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  // `evidesk … | head` closes the pipe early: that ends the output, it is not a crash.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const io: CliIo = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) };
  process.exitCode = await runCli(process.argv.slice(2), io);
}
