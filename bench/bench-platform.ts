import type { Platform } from '../electron/services/platform.ts';

/** The platform a bench's services run with: the command line's, with no dialogs to open. */
export const BENCH_PLATFORM: Platform = {
  mode: 'cli',
  chooseFiles: () => Promise.reject(new Error('no dialogs in a bench')),
  chooseSavePath: () => Promise.reject(new Error('no dialogs in a bench')),
  revealInFolder: () => Promise.reject(new Error('no dialogs in a bench')),
};
