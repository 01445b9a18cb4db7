import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INGESTING_PROCESS_FLAGS } from '../../../electron/services/ingest/ingesting-process-flags.ts';

// V8 reads these flags only at startup, so every launcher of an ingesting process spells them out.
const root = path.resolve(import.meta.dirname, '..', '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');

describe('the V8 flags of processes that ingest', () => {
  it('are the ones the evidesk command restarts with and npm start launches its host with', () => {
    const bin = read('bin/evidesk.js');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(INGESTING_PROCESS_FLAGS.length).toBeGreaterThan(0);
    for (const flag of INGESTING_PROCESS_FLAGS) {
      expect(bin, 'bin/evidesk.js').toContain(`'${flag}'`);
      expect(scripts.start, 'npm start').toContain(`node ${flag} scripts/start.ts`);
      expect(scripts.evidesk, 'npm run evidesk').toContain(`node ${flag} `);
    }
  });
});
