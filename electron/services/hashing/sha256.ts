import { createHash } from 'node:crypto';
import fs from 'node:fs';

const CHUNK = 1 << 20;

/** SHA-256 of a file's bytes, streamed in 1 MiB reads so large files never sit in memory twice. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  const fh = await fs.promises.open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hash.update(bytesRead === CHUNK ? buf : buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

export function sha256Bytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
