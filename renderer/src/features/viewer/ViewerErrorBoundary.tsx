import { Component, type ReactNode } from 'react';
import { HOST_DOWN_TEXT, useHostStatus } from '../../api/host-status.ts';

/**
 * What the viewer says when a document cannot be opened: one sentence of ours (the host being
 * down said as such, never as a moved file) and "Open again". pdf.js's own message (URLs, status
 * codes) goes in the tooltip only.
 */
export function ViewerFailure({ detail, onRetry }: { detail: string | undefined; onRetry(): void }) {
  const down = useHostStatus((s) => s.down);
  return (
    <div className="error viewer-failure" role="alert" style={{ padding: 16 }} title={detail}>
      <p>{down ? HOST_DOWN_TEXT : 'This document could not be opened. If its file moved, relink it, then open it again.'}</p>
      <button type="button" onClick={onRetry}>
        Open again
      </button>
    </div>
  );
}

interface Props {
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * A viewer that throws (a bug, a document a reader cannot take) fails inside the viewer: without
 * this boundary the whole window would blank. "Open again" resets the boundary.
 */
export class ViewerErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render(): ReactNode {
    if (this.state.error) return <ViewerFailure detail={this.state.error.message} onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
