import type { HandlerInput, HandlerName, HandlerOutput } from '../../shared/contract/contract.ts';
import type { Dispatch } from '../../shared/contract/dispatcher.ts';
import { AppError } from '../../shared/contract/errors.ts';
import type { Services } from '../services/create-services.ts';
import type { EvidenceStore } from '../services/store/evidence-store.ts';
import type { ParsedArgs } from './args.ts';

export const EXIT = { ok: 0, someFailed: 1, usage: 2, error: 3 } as const;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export interface CommandContext {
  args: ParsedArgs;
  json: boolean;
  services: Services;
  io: CliIo;
  env: NodeJS.ProcessEnv;
}

/** One evidesk sub-command: its own file under electron/cli/commands, listed in commands/index.ts. */
export interface Command {
  name: string;
  /** One line for the usage text, e.g. `ingest PATH… [--password P]   add files and folders`. */
  usage: string;
  /** Flags that take a value (`--workspace` is always one). */
  valueFlags?: readonly string[];
  run(ctx: CommandContext): Promise<number>;
}

/** What a command that opens no local workspace gets (e.g. `team`, which works on a shared database). */
export type DetachedContext = Omit<CommandContext, 'services'>;

/** A command that opens no local workspace itself (main.ts then opens none for it). */
export interface DetachedCommand {
  name: string;
  usage: string;
  valueFlags?: readonly string[];
  detached: true;
  run(ctx: DetachedContext): Promise<number>;
}

/**
 * A command that also runs on a shared (PostgreSQL) workspace (issue 13): it reaches the data only
 * through `dispatch` (the local workspace's, or the shared services'); `services`, the local
 * workspace's, is there only when no --database is given.
 */
export type SharedContext = Omit<CommandContext, 'services'> & {
  engine: 'sqlite' | 'postgres';
  dispatch: Dispatch;
  services?: Services;
  /** The shared store's areas (only on a shared workspace): what a command prints beside the reply. */
  evidence?: EvidenceStore;
  /** Readies the shared cite service's copy of the sources (only on a shared workspace). */
  warmCite?: () => Promise<void>;
};

export interface SharedCommand extends Omit<Command, 'run'> {
  shared: true;
  run(ctx: SharedContext): Promise<number>;
}

export type AnyCommand = Command | DetachedCommand | SharedCommand;

/** Calls through the dispatcher, as the app does, so the CLI sees the same validation and errors. */
export async function call<N extends HandlerName>(services: { dispatch: Dispatch }, name: N, input: HandlerInput<N>): Promise<HandlerOutput<N>> {
  const envelope = await services.dispatch(name, input);
  if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message, envelope.error.details);
  return envelope.value as HandlerOutput<N>;
}

export function flagString(ctx: Pick<CommandContext, 'args'>, name: string): string | undefined {
  const v = ctx.args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}
