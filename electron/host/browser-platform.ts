import { AppError } from '../../shared/contract/errors.ts';
import type { Platform } from '../services/platform.ts';

/** Browser mode has no native dialogs: the page offers path entry instead, and says so. */
export const browserPlatform: Platform = {
  mode: 'browser',
  chooseFiles: () =>
    Promise.reject(new AppError('DIALOG_UNAVAILABLE', 'File dialogs are not available in browser mode: type or paste the path instead.')),
  chooseSavePath: () =>
    Promise.reject(new AppError('DIALOG_UNAVAILABLE', 'Save dialogs are not available in browser mode: type the path to save to instead.')),
  revealInFolder: () =>
    Promise.reject(new AppError('DIALOG_UNAVAILABLE', 'Revealing files in their folder is not available in browser mode.')),
};
