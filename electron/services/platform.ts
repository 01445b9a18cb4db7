import type { LaunchExtractor } from './ingest/extractor-process.ts';

/**
 * Native abilities the services may ask for. Electron implements them in electron/shell; the
 * browser host and the CLI have their own versions; tests script theirs so e2e tests can pick files.
 */
export interface Platform {
  readonly mode: 'electron' | 'browser' | 'cli' | 'test';
  chooseFiles(options: { title: string; folders: boolean }): Promise<string[]>;
  /** A save dialog: the chosen path, or null when the analyst cancels. Absent where there is none (benches). */
  chooseSavePath?(options: { title: string; defaultName: string }): Promise<string | null>;
  revealInFolder(filePath: string): Promise<void>;
  /** Starts an extraction child process; absent, a Node child is forked (Electron brings utilityProcess). */
  launchExtractor?: LaunchExtractor;
}
