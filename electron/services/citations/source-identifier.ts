/**
 * A source as an agent names it: a source id, a SHA-256 (or a prefix of 8+ hex digits), a custom
 * source's identifier, or a file name or title resolved as answer imports resolve them.
 */
import type { SourceRef } from '../../../shared/imports/model.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import type { CitationsStore, CustomSourceRow } from '../store/citations-store.ts';
import type { SourceResolver } from '../verification/source-resolver.ts';

export type ResolvedIdentifier =
  | { kind: 'source'; source: SourceRefRow; notes: string[] }
  | { kind: 'custom'; custom: CustomSourceRow }
  | { kind: 'unknown'; text: string; ref: SourceRef; notes: string[] };

export function resolveIdentifier(
  identifier: string | number,
  stores: { anchoring: AnchoringStore; citations: Pick<CitationsStore, 'customSource' | 'sourcesByShaPrefix'>; resolver: SourceResolver },
): ResolvedIdentifier {
  const text = String(identifier).trim();
  if (typeof identifier === 'number' || /^\d{1,12}$/.test(text)) {
    const byId = stores.anchoring.source(Number(text));
    if (byId) return { kind: 'source', source: byId, notes: [] };
    const custom = stores.citations.customSource(text);
    if (custom) return { kind: 'custom', custom };
    return { kind: 'unknown', text, ref: { title: `source #${text}` }, notes: [`there is no source with id ${text}`] };
  }
  const custom = stores.citations.customSource(text);
  if (custom) return { kind: 'custom', custom };
  const lower = text.toLowerCase();
  if (/^[0-9a-f]{64}$/.test(lower)) {
    const bySha = stores.anchoring.sourceBySha(lower);
    if (bySha) return { kind: 'source', source: bySha, notes: [] };
    return { kind: 'unknown', text, ref: { sha256: lower }, notes: [`no source has SHA-256 ${lower.slice(0, 12)}…`] };
  }
  if (/^[0-9a-f]{8,63}$/.test(lower)) {
    const ids = stores.citations.sourcesByShaPrefix(lower);
    const only = ids.length === 1 ? stores.anchoring.source(ids[0] as number) : undefined;
    if (only) return { kind: 'source', source: only, notes: [] };
  }
  const ref: SourceRef = { file: text };
  const resolved = stores.resolver.resolve(ref);
  if (resolved.source) return { kind: 'source', source: resolved.source, notes: resolved.notes };
  return { kind: 'unknown', text, ref, notes: resolved.notes };
}
