import type { Label } from './selectors.ts';

/** A status, verdict or decision as icon and exact name; colour only repeats what they say. */
export function Pill({ label, role }: { label: Label; role: 'status' | 'verdict' | 'decision' | 'judge' }) {
  return (
    <span className={`pill tone-${label.tone}`} data-role={role} title={label.hint}>
      <span aria-hidden="true">{label.icon}</span> {label.text}
    </span>
  );
}
