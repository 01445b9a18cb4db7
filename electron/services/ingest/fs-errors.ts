import { AppError } from '../../../shared/contract/errors.ts';

/** A file system error as a coded error naming the file and what to do. */
export function fsError(e: unknown, file: string): AppError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new AppError('FILE_MISSING', `${file} does not exist (it may have been moved or deleted). Check the path and try again.`);
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new AppError('FILE_UNREADABLE', `${file} cannot be read: permission denied. Give your user read access to it and try again.`);
  }
  if (code === 'EISDIR') return new AppError('FILE_UNREADABLE', `${file} is a folder, not a file.`);
  return new AppError('FILE_UNREADABLE', `${file} cannot be read (${code ?? (e as Error).message}).`);
}
