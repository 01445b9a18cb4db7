import { protocol } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CONTENT_SECURITY_POLICY, SOURCE_CONTENT_SECURITY_POLICY } from '../../shared/contract/csp.ts';
import { toErrorData } from '../../shared/contract/errors.ts';
import { APP_SCHEME } from '../../shared/contract/ipc.ts';
import type { DeskServices } from '../services/shared-desk.ts';
import { parseRange } from '../services/sources/byte-range.ts';
import { contentTypeFor, resolveInside } from '../host/static-files.ts';
import { RENDERER_ORIGIN } from './url-policy.ts';

export { RENDERER_ORIGIN } from './url-policy.ts';

/**
 * Must run before app 'ready': app:// is a standard, secure scheme that supports fetch and streams.
 * corsEnabled: the viewer (app://renderer) reads app://source, another origin, with CORS.
 */
export function registerSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: true } },
  ]);
}

/**
 * Source bytes are data for the viewer only: never sniffed into a page, sandboxed if opened as
 * one, never cached, and readable cross-origin by our own UI and by no one else.
 */
const SOURCE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': SOURCE_CONTENT_SECURITY_POLICY,
  'cache-control': 'no-store',
  'access-control-allow-origin': RENDERER_ORIGIN,
  'access-control-expose-headers': 'accept-ranges, content-range, content-length, x-source-origin',
  vary: 'origin',
};

function fileResponse(file: string, status: number, headers: Record<string, string>, start?: number, end?: number): Response {
  const stream = fs.createReadStream(file, start === undefined ? {} : { start, end });
  return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers });
}

async function sourceResponse(request: Request, url: URL, services: Pick<DeskServices, 'sourceFiles'>): Promise<Response> {
  if (request.method === 'OPTIONS') {
    // pdf.js asks for byte ranges: the preflight of a Range request from our own UI.
    return new Response(null, {
      status: 204,
      headers: { ...SOURCE_HEADERS, 'access-control-allow-methods': 'GET, HEAD', 'access-control-allow-headers': 'range', 'access-control-max-age': '600' },
    });
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { ...SOURCE_HEADERS, allow: 'GET, HEAD' } });
  // By id only: no URL can name a path on disk.
  const id = /^\/(\d{1,15})$/.exec(url.pathname)?.[1];
  if (!id) return new Response('Unknown source', { status: 404, headers: SOURCE_HEADERS });
  let servable;
  try {
    servable = await services.sourceFiles.resolve(Number(id));
  } catch (e) {
    const error = toErrorData(e);
    return new Response(JSON.stringify({ ok: false, error }), { status: error.code === 'SOURCE_NOT_FOUND' ? 404 : 410, headers: SOURCE_HEADERS });
  }
  const headers = { ...SOURCE_HEADERS, 'content-type': servable.contentType, 'accept-ranges': 'bytes', 'x-source-origin': servable.origin };
  const range = parseRange(request.headers.get('range'), servable.size);
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${servable.size}` } });
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers: { ...headers, 'content-length': String(servable.size) } });
  if (range) {
    return fileResponse(servable.filePath, 206, {
      ...headers,
      'content-range': `bytes ${range.start}-${range.end}/${servable.size}`,
      'content-length': String(range.end - range.start + 1),
    }, range.start, range.end);
  }
  return fileResponse(servable.filePath, 200, { ...headers, 'content-length': String(servable.size) });
}

/**
 * app://renderer/… serves the built UI from inside its folder only; app://source/<id> serves a
 * source's bytes by id, with ranges.
 */
export async function handleAppRequest(request: Request, services: Pick<DeskServices, 'sourceFiles'>, rendererDir: string): Promise<Response> {
  const url = new URL(request.url);
  if (url.host === 'renderer') {
    const file = resolveInside(rendererDir, url.pathname === '/' ? '/index.html' : url.pathname);
    if (!file || path.extname(file) === '.map') return new Response('Not found', { status: 404, headers: { 'x-content-type-options': 'nosniff' } });
    return fileResponse(file, 200, {
      'content-type': contentTypeFor(file),
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    });
  }
  if (url.host === 'source') return sourceResponse(request, url, services);
  return new Response('Not found', { status: 404, headers: { 'x-content-type-options': 'nosniff' } });
}

export function registerAppProtocol(services: Pick<DeskServices, 'sourceFiles'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => handleAppRequest(request, services, path.resolve(rendererDir)));
}
