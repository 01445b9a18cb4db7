// SHA-256 throughput of the streaming hasher (source identity, health checks) beside openssl and
// coreutils on the same file in the same run.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha256File } from '../electron/services/hashing/sha256.ts';
import { timeCommand, type BenchSection, type Figure } from './report.ts';

async function hashSection(): Promise<BenchSection> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-hash-'));
  const file = path.join(dir, 'random.bin');
  const size = 256 * 1024 * 1024;
  const fd = fs.openSync(file, 'w');
  const chunk = randomBytes(1 << 20);
  for (let i = 0; i < size / chunk.length; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  await sha256File(file); // warm the page cache
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await sha256File(file);
    best = Math.min(best, performance.now() - t0);
  }
  const mbps = (ms: number) => size / 1048576 / (ms / 1000);
  const openssl = timeCommand('openssl', ['dgst', '-sha256', file]);
  const coreutils = timeCommand('sha256sum', [file]);
  fs.rmSync(dir, { recursive: true, force: true });
  const figures: Figure[] = [
    {
      name: 'SHA-256 of a 256 MiB file (streamed, 1 MiB reads)',
      value: mbps(best),
      unit: 'MB/s',
      reference: openssl === null ? { tool: 'openssl dgst -sha256', absent: 'install openssl' } : { tool: 'openssl dgst -sha256', value: mbps(openssl) },
      goal: { op: '>=', value: 0.8, of: 'ratio' },
    },
    {
      name: 'SHA-256 vs coreutils',
      value: mbps(best),
      unit: 'MB/s',
      reference: coreutils === null ? { tool: 'sha256sum', absent: 'not found' } : { tool: 'sha256sum', value: mbps(coreutils) },
    },
  ];
  return { title: 'Hashing', figures };
}

export async function bench(): Promise<BenchSection[]> {
  return [await hashSection()];
}
