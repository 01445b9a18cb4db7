/**
 * Documents dropped on the page in browser mode: the page cannot see where a dropped file lives,
 * so it sends the bytes. They are streamed (never held whole) into the workspace's inbox under the
 * workspace's file-size cap, then ingested from there like any file; the snapshot is the source of
 * record, and the library says the source came in as an upload. Electron ingests drops by their
 * real paths instead (the preload's getPathForFile).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { AppError } from '../../shared/contract/errors.ts';
import type { IngestResult } from '../../shared/contract/schemas.ts';
import type { DeskServices } from '../services/shared-desk.ts';
import { inboxDir } from '../services/workspace/inbox.ts';
import { kindForPath, SUPPORTED_TYPES_IN_WORDS } from '../services/ingest/file-kinds.ts';

const MAX_NAME_LENGTH = 200;

/** A file name safe to write: the last path part, no control or reserved characters, not hidden. */
export function safeUploadName(raw: string | null): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').replace(/^[.\s]+/, '').trim();
  if (clean.length === 0) throw new AppError('INVALID_INPUT', 'The dropped file has no usable name.', { field: 'name' });
  if (clean.length <= MAX_NAME_LENGTH) return clean;
  const ext = path.extname(clean).slice(0, 16);
  return clean.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
}

/**
 * Receives one upload (`POST /upload?name=FILE`, the raw bytes as the body) and ingests it. A body
 * over the cap, or a client gone mid-way, leaves no file behind.
 */
export async function receiveUpload(req: http.IncomingMessage, url: URL, services: Pick<DeskServices, 'handlers' | 'workspaceDir' | 'ingest'>): Promise<IngestResult> {
  const name = safeUploadName(url.searchParams.get('name'));
  const settings = await services.handlers['workspace.settings']({});
  const maxBytes = settings.maxFileMb * 1024 * 1024;
  const declared = Number(req.headers['content-length'] ?? NaN);
  const tooLarge = () =>
    new AppError('FILE_TOO_LARGE', `${name} is over the ${settings.maxFileMb} MB limit for one file. Split it or raise the limit in the workspace settings.`, {
      file: name,
      limit: maxBytes,
    });
  if (kindForPath(name) === null) {
    req.resume();
    throw new AppError('UNSUPPORTED_TYPE', `${name} is not a type Evidence Desk reads: it takes ${SUPPORTED_TYPES_IN_WORDS}.`, { file: name });
  }
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw tooLarge();
  }
  // One folder per upload: two drops of files with the same name never collide.
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = path.join(inboxDir(services.workspaceDir), `${stamp}-${randomBytes(4).toString('hex')}`);
  await fs.promises.mkdir(dir, { recursive: true });
  const target = path.join(dir, name);
  const partial = `${target}.part`;
  let received = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > maxBytes) done(tooLarge());
      else done(null, chunk);
    },
  });
  try {
    await pipeline(req, cap, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    if (received === 0) throw new AppError('FILE_EMPTY', `${name} is empty: there is nothing in it to cite.`, { file: name });
    await fs.promises.rename(partial, target);
  } catch (e) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    if (e instanceof AppError) throw e;
    throw new AppError('CANCELLED', `The upload of ${name} stopped before its end (${(e as Error).message}).`, { file: name });
  }
  // A document that could not be read, or an ingest refused (a shared workspace), keeps no copy in
  // the inbox: nothing refers to it.
  let result: IngestResult;
  try {
    result = await services.ingest.ingest({ paths: [target] });
  } catch (e) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw e;
  }
  if (!result.files.some((f) => f.ok)) await fs.promises.rm(dir, { recursive: true, force: true });
  return result;
}
