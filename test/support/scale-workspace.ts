import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ChainStore } from '../../electron/services/store/audit-chain-store.ts';
import type { SourcesStore } from '../../electron/services/store/sources-store.ts';

export interface SmallSourceOptions {
  /** The file name of the i-th source (0-based); `note-00042.txt` by default. */
  name?: (i: number) => string;
  /** When the i-th source was added (ISO); one second apart by default. */
  addedAt?: (i: number) => string;
  /** Number the texts from here: each call's sources need bytes of their own. */
  start?: number;
}

export function smallSourceText(i: number): string {
  return `Note ${i}: the record keeps item ${i} of the matter, filed under ${['leave', 'travel', 'audit', 'budget'][i % 4]}.\n`;
}

/**
 * `count` small text sources: real files in `dir` (so health checks find them), stored through the
 * sources store (so the audit chain covers them) in one transaction, without extraction: what a
 * workspace of tens of thousands of notes looks like to the lists, generated in seconds.
 */
export function addSmallSources(sources: SourcesStore, dir: string, count: number, options: SmallSourceOptions = {}): number[] {
  fs.mkdirSync(dir, { recursive: true });
  const name = options.name ?? ((i: number) => `note-${String(i).padStart(6, '0')}.txt`);
  const base = Date.parse('2026-01-01T00:00:00Z');
  const addedAt = options.addedAt ?? ((i: number) => new Date(base + i * 1000).toISOString());
  const ids: number[] = [];
  sources.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const text = smallSourceText((options.start ?? 0) + i);
      const file = path.join(dir, name(i));
      fs.writeFileSync(file, text);
      const stat = fs.statSync(file);
      ids.push(
        sources.insert(
          {
            sha256: createHash('sha256').update(text).digest('hex'),
            fileName: name(i),
            byteSize: stat.size,
            path: file,
            stat: { size: stat.size, mtimeMs: stat.mtimeMs },
            doc: { kind: 'text', method: 'text@scale', title: null, pageCount: null, warnings: [], segments: [{ text: text.trimEnd(), line: 1, lineEnd: 1, blockType: 'lines' }] },
            snapshot: null,
            predecessorId: null,
          },
          addedAt(i),
        ),
      );
    }
  })();
  // Inside the outer transaction each insert left the head file alone: publish it once.
  new ChainStore(sources.db).publishHead();
  return ids;
}

/**
 * A native answer of `count` citations over the sources `addSmallSources` made (`sourceCount` of
 * them): each quotes its note, except every `missEvery`-th, whose quote is in no note (not found).
 */
export function bigAnswer(count: number, sourceCount: number, missEvery = 7, name = (i: number) => `note-${String(i).padStart(6, '0')}.txt`): string {
  const sentences: string[] = [];
  const citations: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const j = i % sourceCount;
    const missing = missEvery > 0 && i % missEvery === missEvery - 1;
    const marker = String(i + 1);
    sentences.push(`Item ${j} is kept in the record [${marker}].`);
    citations.push({
      marker,
      claim: `Item ${j} is kept in the record.`,
      quote: missing ? `the archive lost item ${j} of the matter` : `the record keeps item ${j} of the matter`,
      source: { file: name(j) },
      locator: { line: 1 },
    });
  }
  return JSON.stringify({ format: 'evidence-desk/answer@1', question: `Where are the ${count} items kept?`, answer: sentences.join(' '), citations });
}
