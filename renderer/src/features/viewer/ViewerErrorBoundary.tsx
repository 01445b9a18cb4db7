import { Component, type ReactNode } from 'react';
import { HOST_DOWN_TEXT, useHostStatus } from '../../api/host-status.ts';

interface Props {
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * react-pdf (in its Suspense mode) throws a failed load to the nearest error boundary; without
 * one, a moved file would blank the whole window. The failure stays inside the viewer, and the
 * viewer's onLoadError has already reported it (the relink dialog opens for a missing file).
 * "Open again" resets the boundary; react-pdf then retries the load (e.g. after a relink).
 */
export class ViewerErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render(): ReactNode {
    if (this.state.error) {
      // pdf.js's own message (URLs, status codes) goes in the tooltip, not in the sentence.
      return (
        <div className="error" role="alert" style={{ padding: 16 }} title={this.state.error.message}>
          <p>{useHostStatus.getState().down ? HOST_DOWN_TEXT : 'This document could not be opened. If its file moved, relink it, then open it again.'}</p>
          <button type="button" onClick={() => this.setState({ error: null })}>
            Open again
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}
