import { APP_SCHEME } from './ipc.ts';

/**
 * The one Content-Security-Policy of the UI, sent by the Electron protocol (app://renderer) and by
 * the loopback host alike: nothing remote, no inline script, no eval (wasm only, for pdf.js's
 * decoders). The PDF viewer fetches source bytes from app://source/<id> in Electron, an origin
 * other than app://renderer, so connect-src names it and nothing else; in the browser the bytes
 * come from the host's own /source/<id>, which 'self' covers.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data: blob:",
  "worker-src 'self' blob:",
  `connect-src 'self' ${APP_SCHEME}://source`,
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A source's bytes are data, never a page: opened on their own (an HTML source, an SVG) they run
 * nothing, load nothing and get an opaque origin.
 */
export const SOURCE_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";
