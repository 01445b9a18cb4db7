import { describe, expect, it } from 'vitest';
import { auditBanner } from '../../../renderer/src/features/audit/selectors.ts';

describe('the audit banner text', () => {
  it('says nothing for an intact chain', () => {
    expect(auditBanner({ ok: true, rows: 12, head: 'a'.repeat(64) })).toBeNull();
  });

  it('puts the sentence first and the code with its place in the tooltip', () => {
    const text = auditBanner({
      ok: false,
      rows: 12,
      head: 'a'.repeat(64),
      brokenAt: { id: 9, reason: 'Citation result 4 was changed after it was recorded (audit entry 9).', kind: 'edited', seq: 9, table: 'citation_results', rowId: 4 },
    });
    expect(text?.headline).toBe('The record was changed outside Evidence Desk: Citation result 4 was changed after it was recorded (audit entry 9).');
    expect(text?.code).toBe('AUDIT_EDITED · entry 9 · audit_log 9 · citation_results 4 · 12 entries checked');
  });

  it('calls a head-file break a changed anchor, and copes with an older reply without a kind', () => {
    expect(auditBanner({ ok: false, rows: 3, head: 'a'.repeat(64), brokenAt: { id: 0, reason: 'The head file beside the database was changed: its count is not a whole number.', kind: 'head_changed' } })?.headline).toMatch(
      /^The record's anchor was changed outside Evidence Desk: The head file/,
    );
    expect(auditBanner({ ok: false, rows: 3, head: 'a'.repeat(64), brokenAt: { id: 2, reason: 'its content does not match its hash' } })?.code).toBe('AUDIT_BROKEN · audit_log 2 · 3 entries checked');
    // Entries after the anchored head may come from a crash: the banner does not claim tampering.
    expect(auditBanner({ ok: false, rows: 3, head: 'a'.repeat(64), brokenAt: { id: 3, reason: 'Audit entry 3 follows the head the file anchors: …', kind: 'unanchored' } })?.headline).toMatch(
      /^The record may have been changed outside Evidence Desk/,
    );
  });
});
