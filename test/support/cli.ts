import { runCli, type CliIo } from '../../electron/cli/main.ts';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `evidesk --workspace WORKSPACE …argv` in this process with no environment, capturing its output. */
export async function evidesk(workspace: string, ...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t) };
  const code = await runCli(['--workspace', workspace, ...argv], io, {});
  return { code, out: out.join('\n'), err: err.join('\n') };
}
