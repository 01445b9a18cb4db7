import type { Health } from '../../../../shared/contract/schemas.ts';
import { healthLabel } from './selectors.ts';
import './relink.css';

/** A source's file health as icon and word (and colour, never colour alone). */
export function HealthBadge({ health, title }: { health: Health; title?: string | undefined }) {
  const label = healthLabel(health);
  return (
    <span className={`health health-${label.tone}`} data-health={health} title={title}>
      <span aria-hidden="true">{label.icon}</span> {label.text}
    </span>
  );
}
