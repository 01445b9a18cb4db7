import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'evidesk_token';
export const TOKEN_HEADER = 'x-evidesk-token';

/** The same policy as the Electron window's: one constant (shared/contract/csp.ts). */
export { CONTENT_SECURITY_POLICY } from '../../shared/contract/csp.ts';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export type Verdict = { ok: true; tokenFromQuery: boolean } | { ok: false; reason: string };

/**
 * Every request must name this host by its loopback address (DNS-rebinding defence), come from
 * this origin if it says where it comes from, and carry the session's random token.
 */
export function checkRequest(req: IncomingMessage, url: URL, port: number, token: string): Verdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = req.headers.host ?? '';
  if (!allowedHosts.includes(host)) return { ok: false, reason: `foreign Host header "${host}"` };
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.some((h) => origin === `http://${h}`)) {
    return { ok: false, reason: `foreign Origin "${origin}"` };
  }
  const header = req.headers[TOKEN_HEADER];
  const presented = (typeof header === 'string' ? header : undefined) ?? cookieValue(req.headers.cookie, TOKEN_COOKIE);
  if (presented !== undefined && sameSecret(presented, token)) return { ok: true, tokenFromQuery: false };
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null && sameSecret(fromQuery, token)) return { ok: true, tokenFromQuery: true };
  return { ok: false, reason: 'missing or wrong token' };
}
