import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The token cookie's name carries the host's port. Browsers send a 127.0.0.1 cookie to every port
 * of that address (cookies ignore ports), so a fixed name let one session's cookie stand in for, or
 * overwrite, another's: with the port in the name, a host reads only the cookie it set itself.
 */
export function tokenCookieName(port: number): string {
  return `evidesk_token_${port}`;
}

/** The Set-Cookie value that trades the URL's token for a cookie: script cannot read it, other sites never send it. */
export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}
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
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export type Verdict = { ok: true; tokenFromQuery: boolean } | { ok: false; reason: string };

/**
 * Every request must name this host by its loopback address (DNS-rebinding defence), come from
 * this origin if it says where it comes from, and carry the session's random token: in the header,
 * in this port's cookie, or (GET only, the first page load, which the server answers with the
 * cookie and a redirect) in the query. A POST with the token only in its URL is refused.
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
  const presented = (typeof header === 'string' ? header : undefined) ?? cookieValue(req.headers.cookie, tokenCookieName(port));
  if (presented !== undefined && sameSecret(presented, token)) return { ok: true, tokenFromQuery: false };
  const fromQuery = req.method === 'GET' ? url.searchParams.get('token') : null;
  if (fromQuery !== null && sameSecret(fromQuery, token)) return { ok: true, tokenFromQuery: true };
  return { ok: false, reason: 'missing or wrong token' };
}
