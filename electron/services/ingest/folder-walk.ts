import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import type { EntryType, SkippedEntry } from '../../../shared/contract/schemas.ts';
import { isHidden, kindForPath } from './file-kinds.ts';
import { fsError } from './fs-errors.ts';

export interface WalkOptions {
  /** Follow links whose real target is outside the chosen folder (never to FIFOs, sockets or devices). */
  followSymlinks: boolean;
  signal?: AbortSignal;
  /** A folder never walked into (the workspace's own database and snapshots). */
  excludeDir?: string;
}

/** A regular file to ingest, with the identity the walk saw so the reader can catch a swap. */
export interface FoundFile {
  type: 'file';
  path: string;
  dev: number;
  ino: number;
  /** The path itself was a regular file (not a link): the reader opens it with O_NOFOLLOW. */
  noFollow: boolean;
}

export type WalkItem = FoundFile | { type: 'skip'; entry: SkippedEntry } | { type: 'failed'; path: string; error: AppError };

export interface WalkStats {
  /** Entries looked at so far: files, folders, links, everything else. */
  entries: number;
}

export function entryTypeOf(st: fs.Stats): EntryType {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'folder';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'other';
}

function isSpecial(type: EntryType): boolean {
  return type === 'fifo' || type === 'socket' || type === 'device';
}

function inside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Walks the paths a user chose, asynchronously, yielding files as it finds them so ingestion starts
 * before the walk ends. Nothing is opened here: entries are judged by lstat, so a FIFO cannot block
 * the walk. A link is followed only when its real target lies inside the chosen folder (or with
 * followSymlinks), and never to a FIFO, socket or device. A path chosen explicitly is read even when
 * it is a link to a regular file (it was chosen). Folders are walked once each by device and inode,
 * so a link loop ends. Throws CANCELLED when the signal fires.
 */
export async function* walkPaths(roots: readonly string[], options: WalkOptions, stats: WalkStats = { entries: 0 }): AsyncGenerator<WalkItem> {
  const seenDirs = new Set<string>();
  const { signal } = options;
  const checkCancel = (): void => {
    if (signal?.aborted) throw new AppError('CANCELLED', 'The folder walk was cancelled.');
  };

  async function* walkDir(dir: string, st: fs.Stats, boundary: string): AsyncGenerator<WalkItem> {
    if (options.excludeDir !== undefined && (path.resolve(dir) === options.excludeDir || (await fs.promises.realpath(dir).catch(() => '')) === options.excludeDir)) {
      yield { type: 'skip', entry: { path: dir, reason: 'workspace' } };
      return;
    }
    const id = `${st.dev}:${st.ino}`;
    if (seenDirs.has(id)) return;
    seenDirs.add(id);
    const names: string[] = [];
    // Regular files of unsupported types need no lstat: the listing's own type says enough.
    const plainFiles = new Set<string>();
    try {
      for await (const dirent of await fs.promises.opendir(dir)) {
        checkCancel();
        names.push(dirent.name);
        if (dirent.isFile()) plainFiles.add(dirent.name);
      }
    } catch (e) {
      if (e instanceof AppError) throw e;
      yield { type: 'failed', path: dir, error: fsError(e, dir) };
      return;
    }
    names.sort((a, b) => a.localeCompare(b));
    for (const name of names) {
      checkCancel();
      const child = path.join(dir, name);
      if (isHidden(child)) {
        stats.entries++;
        yield { type: 'skip', entry: { path: child, reason: 'hidden' } };
      } else if (plainFiles.has(name) && kindForPath(child) === null) {
        stats.entries++;
        yield { type: 'skip', entry: { path: child, reason: 'unsupported_type', entryType: 'file' } };
      } else {
        yield* walkEntry(child, boundary);
      }
    }
  }

  async function* walkEntry(child: string, boundary: string): AsyncGenerator<WalkItem> {
    let lst: fs.Stats;
    try {
      lst = await fs.promises.lstat(child);
    } catch (e) {
      yield { type: 'failed', path: child, error: fsError(e, child) }; // gone between listing and lstat
      return;
    }
    stats.entries++;
    if (lst.isDirectory()) {
      yield* walkDir(child, lst, boundary);
    } else if (lst.isFile()) {
      if (kindForPath(child) === null) yield { type: 'skip', entry: { path: child, reason: 'unsupported_type', entryType: 'file' } };
      else yield { type: 'file', path: child, dev: lst.dev, ino: lst.ino, noFollow: true };
    } else if (lst.isSymbolicLink()) {
      yield* walkLink(child, boundary);
    } else {
      const type = entryTypeOf(lst);
      yield { type: 'skip', entry: { path: child, reason: isSpecial(type) ? 'special_file' : 'not_a_file', entryType: type } };
    }
  }

  async function* walkLink(link: string, boundary: string): AsyncGenerator<WalkItem> {
    let real: string;
    let st: fs.Stats;
    try {
      real = await fs.promises.realpath(link);
      st = await fs.promises.stat(real);
    } catch {
      yield { type: 'skip', entry: { path: link, reason: 'link_broken' } };
      return;
    }
    const type = entryTypeOf(st);
    if (type !== 'file' && type !== 'folder') {
      yield { type: 'skip', entry: { path: link, reason: isSpecial(type) ? 'special_file' : 'not_a_file', entryType: type, target: real } };
      return;
    }
    if (!inside(real, boundary) && !options.followSymlinks) {
      yield { type: 'skip', entry: { path: link, reason: 'link_outside', entryType: type, target: real } };
      return;
    }
    if (type === 'folder') yield* walkDir(link, st, boundary);
    else if (kindForPath(link) === null) yield { type: 'skip', entry: { path: link, reason: 'unsupported_type', entryType: 'file', target: real } };
    else yield { type: 'file', path: link, dev: st.dev, ino: st.ino, noFollow: false };
  }

  for (const given of roots) {
    checkCancel();
    const root = path.resolve(given);
    let lst: fs.Stats;
    let st: fs.Stats;
    try {
      lst = await fs.promises.lstat(root);
      // A chosen link is followed: the user picked it.
      st = lst.isSymbolicLink() ? await fs.promises.stat(root) : lst;
    } catch (e) {
      yield { type: 'failed', path: root, error: fsError(e, root) };
      continue;
    }
    stats.entries++;
    const type = entryTypeOf(st);
    if (type === 'folder') {
      // The boundary is the chosen folder's real path, so links are judged by where they really lead.
      const boundary = await fs.promises.realpath(root).catch(() => root);
      yield* walkDir(root, st, boundary);
    } else if (type === 'file') {
      // An explicit file of an unsupported type is reported by the ingest as UNSUPPORTED_TYPE.
      yield { type: 'file', path: root, dev: st.dev, ino: st.ino, noFollow: !lst.isSymbolicLink() };
    } else {
      const target = lst.isSymbolicLink() ? await fs.promises.realpath(root).catch(() => undefined) : undefined;
      yield {
        type: 'skip',
        entry: { path: root, reason: isSpecial(type) ? 'special_file' : 'not_a_file', entryType: type, ...(target !== undefined ? { target } : {}) },
      };
    }
  }
}
