import type { VerificationRiskFlag, VerificationSummary } from '../../../../shared/verification/result-schema.ts';
import { percent, riskFlagWords, verdictCounts } from './selectors.ts';

/** Coverage (claims with a supported citation), citations per verdict, and the run's risk flags. */
export function LedgerSummary({ summary, riskFlags, compact = false }: { summary: VerificationSummary; riskFlags: readonly VerificationRiskFlag[]; compact?: boolean }) {
  return (
    <div className={`ledger ${compact ? 'compact' : ''}`} data-testid="ledger">
      <span className="coverage" title="Share of claims with at least one supported citation">
        <span className="coverage-bar" aria-hidden="true">
          <span style={{ width: percent(summary.coverage) }} />
        </span>
        Coverage {percent(summary.coverage)}
      </span>
      {verdictCounts(summary).map(({ verdict, count, label }) => (
        <span key={verdict} className={`count tone-${label.tone}`} title={label.hint}>
          <span aria-hidden="true">{label.icon}</span> {count} {label.text}
        </span>
      ))}
      {riskFlags.length > 0 &&
        (compact ? (
          <span className="risk-flags">
            {riskFlags.map((f) => (
              <span key={f.code} className="risk-flag" data-code={f.code} title={`${f.message} (${[...f.markers.map((m) => `[${m}]`), f.code].join(' ')})`}>
                ⚑ {riskFlagWords(f.code)}
              </span>
            ))}
          </span>
        ) : (
          <ul className="risk-list" aria-label="Risk flags">
            {riskFlags.map((f) => (
              <li key={f.code}>
                <span className="risk-flag" data-code={f.code} title={f.code}>
                  ⚑ {riskFlagWords(f.code)}
                </span>{' '}
                {f.message}
                {f.markers.length > 0 && <span className="muted"> · {f.markers.map((m) => `[${m}]`).join(' ')}</span>}
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
