import { useEffect, useState } from 'react';
import type { WorkspaceInfo } from '../../../shared/contract/schemas.ts';
import { client, ClientError } from '../api/client.ts';
import { LibraryPanel } from '../features/library/LibraryPanel.tsx';
import { RelinkDialog } from '../features/relink/RelinkDialog.tsx';
import { ViewerPanel } from '../features/viewer/ViewerPanel.tsx';

export function App() {
  const [info, setInfo] = useState<WorkspaceInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    client
      .call('workspace.info', {})
      .then(setInfo)
      .catch((e: unknown) => setError(e instanceof ClientError ? e.message : String(e)));
  }, []);

  return (
    <div className="app">
      <header className="topbar">
        <h1>Evidence Desk</h1>
        {info && (
          <span className="workspace" title={info.path}>
            Workspace: {info.path} · {info.mode === 'browser' ? 'browser mode' : info.mode} · v{info.appVersion}
          </span>
        )}
        {error && <span className="error" role="alert">{error}</span>}
      </header>
      <main className="panes">
        <LibraryPanel />
        <ViewerPanel />
      </main>
      <RelinkDialog />
    </div>
  );
}
