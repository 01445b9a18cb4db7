// Fetches one web page, once, for archiving (issue 11): http and https only, redirects followed by
// hand so each hop is checked and recorded, a size cap on the body as it streams in, one deadline
// for the whole exchange, and a content-type check. Runs in the services (never the renderer).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import type { LookupFunction } from 'node:net';
import { AppError } from '../../../shared/contract/errors.ts';
import type { WebPageKind, WebRedirect } from '../../../shared/contract/web-schemas.ts';
import { isPrivateAddress } from './addresses.ts';

export interface FetchLimits {
  /** Bytes of body (after content decoding) over which the fetch stops: WEB_TOO_LARGE. */
  maxBytes: number;
  /** The whole exchange, redirects included, must finish within this: WEB_TIMEOUT. */
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 25 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 10 };

export interface FetchedPage {
  requestedUrl: string;
  finalUrl: string;
  redirects: WebRedirect[];
  status: number;
  /** The media type the server sent (lower case, without parameters), or null. */
  contentType: string | null;
  kind: WebPageKind;
  bytes: Uint8Array;
  fetchedAt: string;
}

const USER_AGENT = 'EvidenceDesk/0.1 (archiving a cited page)';

/** A URL the user gave, checked: absolute, http or https, no credentials in it. */
export function parseWebUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new AppError('WEB_URL_INVALID', `"${input}" is not a web address. Give a full address that starts with http:// or https://.`, { url: input });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('WEB_URL_INVALID', `"${input}" is a ${url.protocol} address; only http:// and https:// pages can be archived.`, { url: input });
  }
  if (url.username || url.password) {
    throw new AppError('WEB_URL_INVALID', `"${url.host}": addresses with a user name or password in them are not fetched.`, { url: input });
  }
  url.hash = '';
  return url;
}

/** Host name without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function dnsFailure(url: URL, e: unknown): AppError {
  const code = (e as NodeJS.ErrnoException).code ?? 'unknown';
  return new AppError('WEB_DNS_FAILED', `The name ${url.hostname} could not be found (DNS: ${code}). Check the address, or your network.`, { url: url.href, cause: code });
}

/** Whether the address the user asked for is itself on a private network (then its redirects may stay there). */
async function startsPrivate(url: URL): Promise<boolean> {
  const host = bareHost(url);
  if (net.isIP(host)) return isPrivateAddress(host);
  try {
    const found = await dns.promises.lookup(host, { all: true });
    return found.some((a) => isPrivateAddress(a.address));
  } catch (e) {
    throw dnsFailure(url, e);
  }
}

/** A lookup that refuses private addresses: a public page cannot send us into the user's network, even by DNS rebinding. */
function publicOnlyLookup(): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as dns.LookupAddress[];
      if (list.some((a) => isPrivateAddress(a.address))) {
        const refused = Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EVIDESK_PRIVATE' });
        return callback(refused, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      return first ? callback(null, first.address, first.family) : callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
    });
  };
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_)/;

/** A socket-level failure, in words and with its code. */
function networkFailure(url: URL, e: unknown, timedOut: boolean): AppError {
  if (e instanceof AppError) return e;
  if (timedOut) return timeoutError(url);
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'EVIDESK_PRIVATE') {
    return new AppError('WEB_REDIRECT_REFUSED', `${url.hostname} leads into a private network; a public page may not send Evidence Desk there.`, { url: url.href });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return dnsFailure(url, e);
  if (TLS_CODES.test(code) || /certificate|ssl|tls/i.test(message)) {
    return new AppError('WEB_TLS_FAILED', `The secure connection to ${url.host} failed (${code || message}); its certificate could not be trusted or TLS could not be agreed.`, { url: url.href, cause: code || message });
  }
  return new AppError('WEB_CONNECTION_FAILED', `Could not talk to ${url.host} (${code || message}).`, { url: url.href, cause: code || message });
}

function timeoutError(url: URL): AppError {
  return new AppError('WEB_TIMEOUT', `${url.host} did not send the page in time; nothing was stored. Try again later.`, { url: url.href });
}

/** The kind of document a response holds, from its declared type (and the bytes when it declares none). */
export function pageKind(contentType: string | null, head: Uint8Array): WebPageKind | null {
  const startsPdf = Buffer.from(head.subarray(0, 5)).toString('latin1') === '%PDF-';
  switch (contentType) {
    case 'text/html':
    case 'application/xhtml+xml':
      return 'html';
    case 'application/pdf':
    case 'application/x-pdf':
      return 'pdf';
    case 'text/plain':
      return 'text';
    case 'text/markdown':
      return 'markdown';
    case null:
    case 'application/octet-stream':
      if (startsPdf) return 'pdf';
      return contentType === null && /^\s*</.test(Buffer.from(head.subarray(0, 512)).toString('latin1')) ? 'html' : null;
    default:
      return null;
  }
}

interface Hop {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Uint8Array | null;
}

/** One request: a redirect's headers, or a 2xx body read within the cap. */
function request(url: URL, lookup: LookupFunction | undefined, limits: FetchLimits, signal: AbortSignal): Promise<Hop> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const req = client.get(
      url,
      {
        signal,
        ...(lookup ? { lookup } : {}),
        headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.1', 'accept-encoding': 'gzip, deflate, br' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          res.resume();
          resolve({ status, headers: res.headers, body: null });
          return;
        }
        const declared = Number(res.headers['content-length']);
        const encoding = String(res.headers['content-encoding'] ?? 'identity').toLowerCase();
        if (encoding === 'identity' && Number.isFinite(declared) && declared > limits.maxBytes) {
          res.destroy();
          reject(tooLarge(url, limits, declared));
          return;
        }
        const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : null;
        const stream: NodeJS.ReadableStream = decoder ? res.pipe(decoder) : res;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) {
            res.destroy();
            decoder?.destroy();
            reject(tooLarge(url, limits, null));
            return;
          }
          chunks.push(chunk);
        });
        let ended = false;
        stream.on('end', () => {
          ended = true;
          resolve({ status, headers: res.headers, body: new Uint8Array(Buffer.concat(chunks)) });
        });
        stream.on('error', reject);
        res.on('error', reject);
        // A connection cut (or aborted by the deadline) before the end: the page is incomplete.
        res.on('close', () => {
          if (!ended && !res.complete) reject(Object.assign(new Error('the connection closed before the whole page arrived'), { code: 'ECONNRESET' }));
        });
      },
    );
    req.on('error', reject);
  });
}

function tooLarge(url: URL, limits: FetchLimits, declared: number | null): AppError {
  const mb = (n: number): string => (n / 1048576).toFixed(1);
  return new AppError(
    'WEB_TOO_LARGE',
    `${url.href} is ${declared !== null ? `${mb(declared)} MB` : 'larger than the limit'}; pages over ${mb(limits.maxBytes)} MB are not archived.`,
    { url: url.href, maxBytes: limits.maxBytes, ...(declared !== null ? { bytes: declared } : {}) },
  );
}

/** Fetches `input` once, following redirects; throws a coded AppError saying why when it cannot. */
export async function fetchPage(input: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Promise<FetchedPage> {
  const first = parseWebUrl(input);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  try {
    // What the user asked for is theirs to ask; only where a public page redirects is guarded.
    const lookup = (await startsPrivate(first)) ? undefined : publicOnlyLookup();
    const redirects: WebRedirect[] = [];
    let url = first;
    for (;;) {
      if (lookup && net.isIP(bareHost(url)) && isPrivateAddress(bareHost(url))) {
        throw new AppError('WEB_REDIRECT_REFUSED', `${first.host} redirected to ${url.host}, a private network address; that is refused.`, { url: first.href, location: url.href });
      }
      let hop: Hop;
      try {
        hop = await request(url, lookup, limits, controller.signal);
      } catch (e) {
        throw networkFailure(url, e, timedOut);
      }
      if (hop.status >= 300 && hop.status < 400 && hop.status !== 304) {
        const location = hop.headers.location;
        if (!location) throw new AppError('WEB_HTTP_STATUS', `${url.href} answered ${hop.status} (a redirect) without saying where to.`, { url: url.href, status: hop.status });
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new AppError('WEB_REDIRECT_REFUSED', `${url.href} redirected to "${location}", which is not a web address.`, { url: url.href, location });
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new AppError('WEB_REDIRECT_REFUSED', `${url.href} redirected to a ${next.protocol} address; only http:// and https:// are followed.`, { url: url.href, location });
        }
        redirects.push({ url: url.href, status: hop.status, location: next.href });
        if (redirects.length > limits.maxRedirects) {
          throw new AppError('WEB_TOO_MANY_REDIRECTS', `${first.href} redirected more than ${limits.maxRedirects} times; it was not archived.`, { url: first.href, redirects });
        }
        next.hash = '';
        url = next;
        continue;
      }
      if (hop.status < 200 || hop.status >= 300 || hop.body === null) {
        const reason = http.STATUS_CODES[hop.status] ?? 'unexpected status';
        throw new AppError('WEB_HTTP_STATUS', `${url.href} answered ${hop.status} (${reason}); nothing was stored.`, { url: url.href, status: hop.status });
      }
      const contentType = hop.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || null;
      const kind = pageKind(contentType, hop.body);
      if (kind === null) {
        throw new AppError('WEB_UNSUPPORTED_TYPE', `${url.href} is ${contentType ?? 'of no declared type'}, not a web page, plain text or a PDF; it was not archived.`, {
          url: url.href,
          contentType,
        });
      }
      if (hop.body.length === 0) throw new AppError('FILE_EMPTY', `${url.href} sent an empty page; there is nothing to archive.`, { url: url.href });
      return { requestedUrl: first.href, finalUrl: url.href, redirects, status: hop.status, contentType, kind, bytes: hop.body, fetchedAt: new Date().toISOString() };
    }
  } finally {
    clearTimeout(timer);
  }
}
