import type { ClaimVerdict } from '../../../../shared/verification/verdict.ts';
import type { ResultRiskFlagCode, VerificationRiskFlag, VerificationSummary } from '../../../../shared/verification/result-schema.ts';
import { markerSample, percent, riskFlagWords, verdictCounts } from './selectors.ts';

interface Props {
  summary: VerificationSummary;
  riskFlags: readonly VerificationRiskFlag[];
  compact?: boolean;
  /** Given on the review desk: a verdict count or a flag group, clicked, shows those cards only. */
  onVerdict?: (verdict: ClaimVerdict) => void;
  onFlag?: (code: ResultRiskFlagCode) => void;
  activeFlag?: ResultRiskFlagCode | null;
}

/**
 * Coverage (claims with a supported citation), citations per verdict, and the run's risk flags as
 * groups with their counts, never as walls of markers (issue 16): on the desk each group is a way
 * to the cards it names.
 */
export function LedgerSummary({ summary, riskFlags, compact = false, onVerdict, onFlag, activeFlag = null }: Props) {
  return (
    <div className={`ledger ${compact ? 'compact' : ''}`} data-testid="ledger">
      <span className="coverage" title="Share of claims with at least one supported citation">
        <span className="coverage-bar" aria-hidden="true">
          <span style={{ width: percent(summary.coverage) }} />
        </span>
        Coverage {percent(summary.coverage)}
      </span>
      {verdictCounts(summary).map(({ verdict, count, label }) =>
        onVerdict ? (
          <button key={verdict} type="button" className={`count tone-${label.tone} count-button`} title={`${label.hint}. Show these cards only.`} onClick={() => onVerdict(verdict)}>
            <span aria-hidden="true">{label.icon}</span> {count} {label.text}
          </button>
        ) : (
          <span key={verdict} className={`count tone-${label.tone}`} title={label.hint}>
            <span aria-hidden="true">{label.icon}</span> {count} {label.text}
          </span>
        ),
      )}
      {riskFlags.length > 0 &&
        (compact ? (
          <span className="risk-flags">
            {riskFlags.map((f) => (
              <span key={f.code} className="risk-flag" data-code={f.code} title={`${f.message} (${markerSample(f.markers)}; ${f.code})`}>
                ⚑ {f.markers.length > 0 ? `${f.markers.length} ` : ''}
                {riskFlagWords(f.code)}
              </span>
            ))}
          </span>
        ) : (
          <ul className="risk-list" aria-label="Risk flags">
            {riskFlags.map((f) => (
              <li key={f.code} data-flag={f.code}>
                <span className="risk-flag" data-code={f.code} title={`${f.code}: ${markerSample(f.markers)}`}>
                  ⚑ {riskFlagWords(f.code)}
                </span>{' '}
                {f.message}
                {onFlag && f.markers.length > 0 && (
                  <>
                    {' · '}
                    <button type="button" className="link" aria-pressed={activeFlag === f.code} onClick={() => onFlag(f.code)} aria-label={`Show the ${f.markers.length === 1 ? 'citation' : `${f.markers.length} citations`}: ${f.message}`}>
                      show
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
