/**
 * The bytes of a document an answer file carries inline (an Anthropic request's base64 PDF or plain
 * text), so the caller can hash them as ingestion hashes a file and know the document by content.
 * Written out here because shared/ cannot count on Node's Buffer or the DOM's TextEncoder and atob
 * (TextEncoder is used when the runtime has it).
 */

/** The platform's TextEncoder where there is one (Node, Electron and browsers all have it), found at run time. */
const encoder = (globalThis as { TextEncoder?: new () => { encode(text: string): Uint8Array } }).TextEncoder;
const nativeUtf8 = encoder ? new encoder() : null;

/** The UTF-8 bytes of a string (a lone surrogate becomes U+FFFD, as TextEncoder does). */
export function utf8Bytes(text: string): Uint8Array {
  // Native encoding where available: a report's canonical text is megabytes (its excerpt images),
  // and the loop below takes about six times as long over it.
  if (nativeUtf8) return nativeUtf8.encode(text);
  return utf8BytesPortable(text);
}

/** The UTF-8 bytes of texts one after another: those of their join, without making the joined text (none may end inside a surrogate pair). */
export function utf8BytesOfTexts(texts: readonly string[]): Uint8Array {
  const encoded = texts.map(utf8Bytes);
  const out = new Uint8Array(encoded.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const bytes of encoded) {
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

/** utf8Bytes written out, for a runtime without TextEncoder. */
export function utf8BytesPortable(text: string): Uint8Array {
  // One pass over UTF-16 units into a buffer sized for the worst case (3 bytes a unit): reports
  // of megabytes are hashed through here, so no per-character arrays.
  const out = new Uint8Array(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else cp = 0xfffd;
    } else if (cp >= 0xdc00 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) out[n++] = cp;
    else if (cp < 0x800) {
      out[n++] = 0xc0 | (cp >> 6);
      out[n++] = 0x80 | (cp & 63);
    } else if (cp < 0x10000) {
      out[n++] = 0xe0 | (cp >> 12);
      out[n++] = 0x80 | ((cp >> 6) & 63);
      out[n++] = 0x80 | (cp & 63);
    } else {
      out[n++] = 0xf0 | (cp >> 18);
      out[n++] = 0x80 | ((cp >> 12) & 63);
      out[n++] = 0x80 | ((cp >> 6) & 63);
      out[n++] = 0x80 | (cp & 63);
    }
  }
  return out.subarray(0, n);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;
BASE64_VALUE['-'.charCodeAt(0)] = 62; // base64url
BASE64_VALUE['_'.charCodeAt(0)] = 63;

/** The bytes of base64 (or base64url) text, whitespace ignored; null when it is not base64. */
export function base64Bytes(b64: string): Uint8Array | null {
  const out = new Uint8Array(Math.floor((b64.length * 3) / 4) + 3);
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < b64.length; i++) {
    const code = b64.charCodeAt(i);
    if (code === 0x3d) break; // "=" padding
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue;
    const v = code < 128 ? (BASE64_VALUE[code] ?? -1) : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}
