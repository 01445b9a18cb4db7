import { useEffect } from 'react';
import { afterFirstScreen } from '../../app/first-screen.ts';
import { useAudit } from './audit-store.ts';
import { auditBanner } from './selectors.ts';
import './audit.css';

/**
 * A red banner when the start-up check finds the record changed outside the app. The check
 * starts once the first screen is drawn (it reads every row of the record: on a large workspace the
 * host would answer the library's first page only after it) and runs in the background.
 */
export function AuditBanner() {
  const check = useAudit((s) => s.check);
  const error = useAudit((s) => s.error);
  const notYours = useAudit((s) => s.notYours);
  const run = useAudit((s) => s.run);
  useEffect(() => afterFirstScreen(() => void run()), [run]);

  if (error && notYours) {
    return (
      <div className="audit-note" role="status" title={error}>
        The shared workspace's audit chain is checked by its auditors and admins: your role may not read it.
      </div>
    );
  }
  if (error) {
    return (
      <div className="audit-note" role="status" title={error}>
        The record's audit chain could not be checked at start. Reload the window to check it again.
      </div>
    );
  }
  if (!check) return null;
  const banner = auditBanner(check);
  if (!banner) {
    // Said to screen readers (and tests) once, not shown: an intact record needs no attention.
    return (
      <div className="audit-intact" role="status" data-testid="audit-intact">
        The record's audit chain checks out ({check.rows} entries).
      </div>
    );
  }
  return (
    <div className="audit-banner" role="alert" title={banner.code} data-kind={check?.brokenAt?.kind}>
      <strong>
        <span aria-hidden="true">⚠ </span>
        {banner.headline}
      </strong>
      <span className="audit-banner-detail">
        {banner.detail}
      </span>
    </div>
  );
}
