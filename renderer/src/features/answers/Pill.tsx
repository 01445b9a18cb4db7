import type { Label } from './selectors.ts';

/** A status, verdict or decision as icon and sentence; the code in the tooltip; colour only repeats what they say. */
export function Pill({ label, role }: { label: Label; role: 'status' | 'verdict' | 'decision' | 'judge' }) {
  return (
    <span className={`pill tone-${label.tone}`} data-role={role} data-code={label.code} title={label.code ? `${label.hint} (${label.code})` : label.hint}>
      <span aria-hidden="true">{label.icon}</span> {label.text}
    </span>
  );
}
