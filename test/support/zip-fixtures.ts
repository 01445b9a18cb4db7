// ZIP surgery for tests of hostile DOCX files (zip bombs that lie about their sizes).

/** Sets an entry's declared uncompressed size in the central directory and its local header. */
export function forgeDeclaredSize(zip: Uint8Array, entryName: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  let eocd = out.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  for (let i = 0; i < count; i++) {
    const nameLen = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(out.subarray(at + 46, at + 46 + nameLen));
    if (name === entryName) {
      view.setUint32(at + 24, size, true);
      view.setUint32(view.getUint32(at + 42, true) + 22, size, true);
      return out;
    }
    at += 46 + nameLen + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  throw new Error(`no entry ${entryName}`);
}
