// The MCP server's warm-up before an agent's first call (verifier-warmup.ts): its sample must go
// through the code a cite runs (a fuzzy find, not the verbatim shortcut, and a claim judged with
// WordNet), or warming it saves nothing; and it runs once per process, whoever asks.
import { describe, expect, it } from 'vitest';
import { warmVerifier } from '../../../electron/services/verification/verifier-warmup.ts';

describe('warming the verifier before the first cite', () => {
  it('finds the sample quote by a fuzzy match and judges its claim supported, once per process', async () => {
    const first = warmVerifier();
    const warmed = await first;
    expect(warmed.method).not.toBeNull();
    expect(warmed.method).not.toBe('exact');
    expect(warmed.verdict).toBe('supported');
    expect(warmed.ms).toBeGreaterThan(0);
    expect(warmVerifier()).toBe(first);
  });
});
