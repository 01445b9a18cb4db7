import { protocol } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { toErrorData } from '../../shared/contract/errors.ts';
import { APP_SCHEME } from '../../shared/contract/ipc.ts';
import type { Services } from '../services/create-services.ts';
import { parseRange } from '../services/sources/byte-range.ts';
import { contentTypeFor, resolveInside } from '../host/static-files.ts';
import { CONTENT_SECURITY_POLICY } from '../host/security.ts';

export const RENDERER_ORIGIN = `${APP_SCHEME}://renderer`;

/** Must run before app 'ready': app:// is a standard, secure scheme that supports fetch and streams. */
export function registerSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: false } },
  ]);
}

function fileResponse(file: string, status: number, headers: Record<string, string>, start?: number, end?: number): Response {
  const stream = fs.createReadStream(file, start === undefined ? {} : { start, end });
  return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers });
}

/**
 * app://renderer/… serves the built UI from inside its folder only; app://source/<id> serves a
 * source's bytes by id, with ranges. No URL can name a path on disk.
 */
export async function handleAppRequest(request: Request, services: Services, rendererDir: string): Promise<Response> {
  const url = new URL(request.url);
  if (url.host === 'renderer') {
    const file = resolveInside(rendererDir, url.pathname === '/' ? '/index.html' : url.pathname);
    if (!file) return new Response('Not found', { status: 404 });
    return fileResponse(file, 200, { 'content-type': contentTypeFor(file), 'content-security-policy': CONTENT_SECURITY_POLICY });
  }
  if (url.host === 'source') {
    const id = /^\/(\d+)$/.exec(url.pathname)?.[1];
    if (!id) return new Response('Unknown source', { status: 404 });
    let servable;
    try {
      servable = await services.sourceFiles.resolve(Number(id));
    } catch (e) {
      const error = toErrorData(e);
      return new Response(JSON.stringify({ ok: false, error }), { status: error.code === 'SOURCE_NOT_FOUND' ? 404 : 410 });
    }
    const headers = { 'content-type': servable.contentType, 'accept-ranges': 'bytes', 'x-source-origin': servable.origin };
    const range = parseRange(request.headers.get('range'), servable.size);
    if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${servable.size}` } });
    if (range) {
      return fileResponse(servable.filePath, 206, {
        ...headers,
        'content-range': `bytes ${range.start}-${range.end}/${servable.size}`,
        'content-length': String(range.end - range.start + 1),
      }, range.start, range.end);
    }
    return fileResponse(servable.filePath, 200, { ...headers, 'content-length': String(servable.size) });
  }
  return new Response('Not found', { status: 404 });
}

export function registerAppProtocol(services: Services, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => handleAppRequest(request, services, path.resolve(rendererDir)));
}
