import type { AuditCheckData } from '../../../../shared/contract/answer-schemas.ts';

/** What the banner says: a sentence for people, and the code for the tooltip. */
export interface AuditBannerText {
  headline: string;
  detail: string;
  code: string;
}

const HEAD_KINDS = new Set(['head_changed', 'head_missing']);

/** The banner for a failed check, or null when the chain is intact. */
export function auditBanner(check: AuditCheckData): AuditBannerText | null {
  if (check.ok) return null;
  const b = check.brokenAt;
  const kind = b?.kind ?? 'broken';
  const reason = b?.reason ?? 'the audit chain does not check out.';
  const headline =
    kind === 'unanchored'
      ? `The record may have been changed outside Evidence Desk: ${reason}`
      : HEAD_KINDS.has(kind)
        ? `The record's anchor was changed outside Evidence Desk: ${reason}`
        : `The record was changed outside Evidence Desk: ${reason}`;
  const where = [
    b?.seq !== undefined ? `entry ${b.seq}` : null,
    b && b.id > 0 ? `audit_log ${b.id}` : null,
    b?.table ? `${b.table} ${b.rowId ?? '?'}` : null,
  ].filter((x): x is string => x !== null);
  return {
    headline,
    detail: 'Decisions and results in this workspace can no longer be trusted as shown. Restore the workspace from a backup you trust.',
    code: `AUDIT_${kind.toUpperCase()}${where.length ? ` · ${where.join(' · ')}` : ''} · ${check.rows} entries checked`,
  };
}
