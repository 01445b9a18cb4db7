// Extraction runs in child processes, not worker threads: terminating a worker thread while it
// creates a zlib stream (pdf.js inflates every page's content through DecompressionStream) trips
// Node's "close before init" assertion and aborts the whole process. A child process that is
// killed takes nothing else down. This file is the launcher seam: plain Node forks a Node child;
// the Electron shell passes a launcher over utilityProcess through the platform interface.
import { fork } from 'node:child_process';

/** How a child ended, as the pool needs to word its error. */
export interface ChildExit {
  code: number | null;
  signal: string | null;
  /** The child died of its heap cap (V8's fatal "heap out of memory"). */
  outOfMemory: boolean;
}

/** One extraction child process, whatever started it. */
export interface ExtractorChild {
  send(message: unknown): void;
  /** Ends the child at once (SIGKILL where there is one): safe, it shares no memory with us. */
  kill(): void;
  /** A busy child keeps the host process alive; an idle one must not (the CLI exits when done). */
  hold(busy: boolean): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Each listener is called once, when the child has gone (killed, crashed or exited). */
  onExit(listener: (exit: ChildExit) => void): void;
}

export interface LaunchOptions {
  /** Absolute path of the extraction script (extract-worker.ts from source, .mjs when bundled). */
  script: string;
  /** Old-generation heap cap: a hostile document kills its child, not the app. */
  maxHeapMb: number;
  /** Semi-space size: V8 keeps every heap page it ever grew to, so a small young generation keeps children lean. */
  semiSpaceMb: number;
}

export type LaunchExtractor = (options: LaunchOptions) => ExtractorChild;

/** V8 prints this on stderr when a heap cap is reached, just before it aborts the process. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit/i;
const STDERR_TAIL = 8192;

/** Keeps the end of a child's stderr, to tell an out-of-memory death from another crash. */
export function stderrTail(): { push(chunk: Buffer | string): void; outOfMemory(): boolean } {
  let tail = '';
  return {
    push: (chunk) => {
      tail = (tail + chunk.toString()).slice(-STDERR_TAIL);
    },
    outOfMemory: () => OUT_OF_MEMORY.test(tail),
  };
}

/**
 * V8 flags for a child: its heap caps, nothing inherited from the parent (no --inspect, no loaders),
 * and `gc` exposed so that the child gives its heap back when a document is done (extract-worker.ts;
 * where a launcher ignores the flag, the child just keeps its heap as before).
 */
export function childExecArgv(options: LaunchOptions): string[] {
  return [`--max-old-space-size=${options.maxHeapMb}`, `--max-semi-space-size=${options.semiSpaceMb}`, '--expose-gc'];
}

/**
 * glibc malloc settings for a child (issue 16 item 5). pdf.js's parsing leaves glibc's heap
 * fragmented: a freed multi-megabyte block raises its mmap threshold (up to 32 MB), so later large
 * blocks (the file's copy, replies, zlib's buffers) come from the heap too and are never handed
 * back, and each thread that allocates gets an arena of its own. One arena and a fixed 128 KiB
 * threshold (large blocks mapped, and unmapped when freed) kept a child reading five 200-page
 * ranges of the R manual at ~116 MB private memory instead of ~144, for the same CPU time (13.0 s
 * against 13.1 s, both run side by side). Other C
 * libraries ignore these variables; Electron's utility processes use Chromium's allocator.
 */
export function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: String(128 * 1024) };
}

/** Plain Node (CLI, host, tests): a forked Node process with structured-clone IPC. */
export const forkNodeExtractor: LaunchExtractor = (options) => {
  const child = fork(options.script, [], {
    execArgv: childExecArgv(options),
    env: childEnv(),
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const tail = stderrTail();
  child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
  // A send to a child that has just died fails with EPIPE/ERR_IPC_CHANNEL_CLOSED; its exit reports it.
  child.on('error', () => undefined);
  const exitListeners: ((exit: ChildExit) => void)[] = [];
  let exited: ChildExit | null = null;
  child.on('exit', (code, signal) => {
    const exit: ChildExit = { code, signal, outOfMemory: tail.outOfMemory() };
    exited = exit;
    for (const listener of exitListeners.splice(0)) listener(exit);
  });
  return {
    send: (message) => {
      if (exited === null && child.connected) child.send(message as object, (e) => void e);
    },
    kill: () => {
      if (exited === null) child.kill('SIGKILL');
    },
    hold: (busy) => {
      // The IPC channel and the stderr pipe each hold the event loop too.
      const handles = [child.channel, child.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[];
      if (busy) child.ref();
      else child.unref();
      for (const h of handles) {
        if (busy) h?.ref?.();
        else h?.unref?.();
      }
    },
    onMessage: (listener) => {
      child.on('message', listener);
    },
    onExit: (listener) => {
      if (exited) listener(exited);
      else exitListeners.push(listener);
    },
  };
};
