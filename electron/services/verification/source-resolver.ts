/** Which workspace source a citation's reference names: by hash, by exact name, else loosely. */
import type { SourceRef } from '../../../shared/imports/model.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import { abbreviates, compactName, contentWords, describeReference, nameWords, stripExtension, withoutDocExtension, wordsWithin } from './source-names.ts';
import { rootOf } from './source-lineage.ts';

export class SourceResolver {
  private readonly anchoring: AnchoringStore;

  constructor(anchoring: AnchoringStore) {
    this.anchoring = anchoring;
  }

  /**
   * The workspace source a reference names: by SHA-256, else by a unique file name or title
   * (case-insensitive, with or without extension; versions of one document count as one, the
   * newest chosen). Null with notes when none or several match.
   */
  resolve(ref: SourceRef): { source: SourceRefRow | null; notes: string[] } {
    const notes: string[] = [];
    if (ref.sha256) {
      const bySha = this.anchoring.sourceBySha(ref.sha256);
      if (bySha) return { source: bySha, notes };
      notes.push(`no workspace source has SHA-256 ${ref.sha256.slice(0, 12)}…`);
    }
    const names = [ref.file, ref.title].filter((n): n is string => !!n && n.trim().length > 0);
    for (const raw of names) {
      const name = raw.trim().toLowerCase();
      const stem = stripExtension(name);
      const rows = this.anchoring.sourcesNamed(name, stem);
      if (rows.length === 0) continue;
      // Full-name matches outrank extension-less ones ("report.pdf" beside "report.docx").
      const exact = rows.filter((r) => r.file_name.toLowerCase() === name || (r.title ?? '').toLowerCase() === name);
      const pool = exact.length > 0 ? exact : rows;
      const lineages = new Map<number, SourceRefRow[]>();
      for (const r of pool) {
        const root = rootOf(this.anchoring, r);
        lineages.set(root, [...(lineages.get(root) ?? []), r]);
      }
      if (lineages.size === 1) {
        const versions = [...lineages.values()][0] ?? [];
        const chosen = versions.reduce((a, b) => (b.id > a.id ? b : a));
        if (ref.sha256) notes.push(`matched by name instead: ${chosen.file_name}`);
        if (versions.length > 1) notes.push(`${versions.length} versions of ${chosen.file_name} match; checked against the newest`);
        return { source: chosen, notes };
      }
      notes.push(`${describeReference({ file: raw })} matches ${pool.length} different sources (${pool.map((r) => r.file_name).join(', ')}): cite it by SHA-256 to choose one`);
      return { source: null, notes };
    }
    return this.resolveLoosely(names, ref, notes);
  }

  /**
   * No source has the name: the name as people write it. Tiers, loosest last: the same letters and
   * digits ("free culture.pdf", "HR Policy"); an abbreviation ("R Full Reference Manual" for
   * r-fullrefman.pdf); all of two or more words within the title or file name. Within the first
   * tier that matches anything, one document is the answer and several are no answer: the note
   * lists them, nothing is guessed.
   */
  private resolveLoosely(names: string[], ref: SourceRef, notes: string[]): { source: SourceRefRow | null; notes: string[] } {
    if (names.length === 0) return { source: null, notes };
    const all = this.anchoring.allSources();
    const stemOf = (r: SourceRefRow): string => stripExtension(r.file_name);
    // One side's words within the other's, covering at least half of them.
    const within = (some: string[], all: string[]): boolean => wordsWithin(some, all) && some.length * 2 >= all.length;
    const tiers: ((name: string, r: SourceRefRow) => boolean)[] = [
      (name, r) => {
        const c = compactName(withoutDocExtension(name));
        return c.length > 0 && (c === compactName(stemOf(r)) || c === compactName(r.title ?? ''));
      },
      (name, r) => {
        const words = nameWords(withoutDocExtension(name));
        const c = compactName(withoutDocExtension(name));
        return abbreviates(compactName(stemOf(r)), words) || abbreviates(c, nameWords(stemOf(r))) || (r.title !== null && abbreviates(c, nameWords(r.title)));
      },
      (name, r) => {
        const words = contentWords(withoutDocExtension(name));
        const title = r.title !== null ? contentWords(r.title) : [];
        return within(words, title) || within(title, words) || within(words, contentWords(stemOf(r)));
      },
    ];
    for (const matches of tiers) {
      for (const raw of names) {
        const pool = all.filter((r) => matches(raw.trim(), r));
        if (pool.length === 0) continue;
        const lineages = new Map<number, SourceRefRow[]>();
        for (const r of pool) {
          const root = rootOf(this.anchoring, r);
          lineages.set(root, [...(lineages.get(root) ?? []), r]);
        }
        if (lineages.size > 1) {
          const listed = pool.map((r) => r.file_name).sort().slice(0, 8).join(', ');
          notes.push(`${describeReference({ file: raw })} could be any of ${lineages.size} sources (${listed}${pool.length > 8 ? ', …' : ''}): cite it by its file name or SHA-256 to choose one`);
          return { source: null, notes };
        }
        const versions = [...lineages.values()][0] ?? [];
        const chosen = versions.reduce((a, b) => (b.id > a.id ? b : a));
        if (ref.sha256) notes.push(`matched by name instead: ${chosen.file_name}`);
        notes.push(`${describeReference({ file: raw })} read as ${chosen.file_name}${chosen.title ? ` ("${chosen.title}")` : ''}: the only source whose name matches it`);
        if (versions.length > 1) notes.push(`${versions.length} versions of ${chosen.file_name} match; checked against the newest`);
        return { source: chosen, notes };
      }
    }
    return { source: null, notes };
  }
}
