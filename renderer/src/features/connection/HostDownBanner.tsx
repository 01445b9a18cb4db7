import { HOST_DOWN_TEXT, useHostStatus } from '../../api/host-status.ts';

/** Said at the top of the window while the host does not answer; gone once it answers again. */
export function HostDownBanner() {
  const down = useHostStatus((s) => s.down);
  if (!down) return null;
  return (
    <div className="host-down" role="alert" data-testid="host-down">
      <strong>
        <span aria-hidden="true">⚠ </span>
        {HOST_DOWN_TEXT}
      </strong>
    </div>
  );
}
