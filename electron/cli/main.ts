import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HandlerInput, HandlerName, HandlerOutput } from '../../shared/contract/contract.ts';
import type { Platform } from '../services/platform.ts';
import { AppError } from '../../shared/contract/errors.ts';
import { createServices, type Services } from '../services/create-services.ts';
import { resolveWorkspaceDir } from '../services/workspace/location.ts';
import { parseArgs } from './args.ts';
import { table } from './table.ts';

export const EXIT = { ok: 0, someFailed: 1, usage: 2, error: 3 } as const;

const USAGE = `evidesk: Evidence Desk on the command line, over the same workspace as the app.

Usage: evidesk <command> [options]
  info                       the workspace's location, schema and number of sources
  ingest PATH… [--password P] add files and folders (recursive); a table per file
  sources                    list the workspace's sources

Every command takes --workspace DIR (default: $EVIDESK_WORKSPACE, else the app's user-data folder)
and --json (machine-readable output). Exit codes: 0 all done, 1 some files or items failed,
2 usage error, 3 the command failed.`;

const VALUE_FLAGS = new Set(['workspace', 'password']);

const cliPlatform: Platform = {
  mode: 'cli',
  chooseFiles: () => Promise.reject(new AppError('DIALOG_UNAVAILABLE', 'The command line has no file dialogs: give paths as arguments.')),
  revealInFolder: () => Promise.reject(new AppError('DIALOG_UNAVAILABLE', 'The command line cannot reveal files.')),
};

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Calls through the dispatcher, as the app does, so the CLI sees the same validation and errors. */
async function call<N extends HandlerName>(services: Services, name: N, input: HandlerInput<N>): Promise<HandlerOutput<N>> {
  const envelope = await services.dispatch(name, input);
  if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message, envelope.error.details);
  return envelope.value as HandlerOutput<N>;
}

export async function runCli(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseArgs(argv, VALUE_FLAGS);
  const json = args.flags.has('json');
  if (!args.command || args.command === 'help' || args.flags.has('help')) {
    io.out(USAGE);
    return args.command ? EXIT.ok : EXIT.usage;
  }
  const workspaceFlag = args.flags.get('workspace');
  const workspaceDir = resolveWorkspaceDir(typeof workspaceFlag === 'string' ? ['--workspace', workspaceFlag] : [], env);
  let services: Services | undefined;
  try {
    services = createServices(cliPlatform, workspaceDir);
    switch (args.command) {
      case 'info': {
        const info = await call(services, 'workspace.info', {});
        io.out(json ? JSON.stringify(info, null, 2) : `Workspace: ${info.path}\nSchema: ${info.schemaVersion}\nSources: ${info.sourceCount}\nEvidence Desk ${info.appVersion}`);
        return EXIT.ok;
      }
      case 'ingest': {
        if (args.positionals.length === 0) {
          io.err('evidesk ingest: give at least one file or folder.');
          return EXIT.usage;
        }
        const password = args.flags.get('password');
        const result = await call(services, 'sources.ingest', {
          paths: args.positionals,
          ...(typeof password === 'string' ? { password } : {}),
        });
        if (json) io.out(JSON.stringify(result, null, 2));
        else {
          const rows = result.files.map((f) =>
            f.ok
              ? [path.basename(f.path), f.outcome, String(f.segmentCount), f.sha256.slice(0, 12), f.warnings.map((w) => w.code).join(', ')]
              : [path.basename(f.path), 'FAILED', '', '', `${f.error.code}: ${f.error.message}`],
          );
          io.out(table(['file', 'result', 'segments', 'sha256', 'notes'], rows));
          for (const s of result.skipped) io.out(`skipped (${s.reason.replace('_', ' ')}): ${s.path}`);
          const failed = result.files.filter((f) => !f.ok).length;
          io.out(`${result.files.length - failed} of ${result.files.length} files ingested${failed ? `, ${failed} failed` : ''}.`);
        }
        return result.files.some((f) => !f.ok) ? EXIT.someFailed : EXIT.ok;
      }
      case 'sources': {
        const list = await call(services, 'sources.list', {});
        if (json) io.out(JSON.stringify(list, null, 2));
        else {
          io.out(
            table(
              ['id', 'file', 'kind', 'pages', 'sha256', 'path'],
              list.map((s) => [String(s.id), s.fileName, s.kind, String(s.pageCount ?? s.segmentCount), s.sha256.slice(0, 12), s.path ?? '']),
            ),
          );
        }
        return EXIT.ok;
      }
      default:
        io.err(`evidesk: unknown command "${args.command}".\n\n${USAGE}`);
        return EXIT.usage;
    }
  } catch (e) {
    const err = e instanceof AppError ? e.toData() : { code: 'INTERNAL', message: (e as Error).message };
    if (json) io.out(JSON.stringify({ ok: false, error: err }, null, 2));
    else io.err(`evidesk ${args.command}: ${err.message} [${err.code}]`);
    return EXIT.error;
  } finally {
    services?.close();
  }
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && path.resolve(process.argv[1]) === self) {
  const io: CliIo = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) };
  process.exitCode = await runCli(process.argv.slice(2), io);
}
