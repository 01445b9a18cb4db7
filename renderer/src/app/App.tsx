import { Suspense, useEffect, useState } from 'react';
import type { WorkspaceInfo } from '../../../shared/contract/schemas.ts';
import { client, ClientError } from '../api/client.ts';
import { AuditBanner } from '../features/audit/AuditBanner.tsx';
import { useAnswers } from '../features/answers/answers-store.ts';
import { CitationBar } from '../features/answers/CitationBar.tsx';
import { LibraryPanel } from '../features/library/LibraryPanel.tsx';
import { useLibrary } from '../features/library/library-store.ts';
import { useCheckOnFocus } from '../features/relink/check-on-focus.ts';
import { ViewerPanel } from '../features/viewer/ViewerPanel.tsx';
import { HostDownBanner } from '../features/connection/HostDownBanner.tsx';
import { TeamBanner } from '../features/team/TeamBanner.tsx';
import { sharedWorkspaceLine } from '../features/team/team-words.ts';
import { LinkNotice } from '../features/links/LinkNotice.tsx';
import { useLinkRoute } from '../features/links/use-link-route.ts';
import { useFirstScreenShown } from './first-screen.ts';
import { lazyPart, partFailed, PartLoading } from './lazy-part.tsx';

// Not on the first screen: chunks of their own, drawn once it is up (or, for a tab, once chosen).
const AnswersPanel = lazyPart(() => import('../features/answers/AnswersPanel.tsx').then((m) => m.AnswersPanel), partFailed('The answers'));
const SearchPanel = lazyPart(() => import('../features/search/SearchPanel.tsx').then((m) => m.SearchPanel), partFailed('Search'));
const RelinkDialog = lazyPart(() => import('../features/relink/RelinkDialog.tsx').then((m) => m.RelinkDialog), partFailed('The relink dialog'));
const FindMissingDialog = lazyPart(() => import('../features/relink/FindMissingDialog.tsx').then((m) => m.FindMissingDialog), partFailed('The search for missing files'));
const ExportDialog = lazyPart(() => import('../features/reports/ExportDialog.tsx').then((m) => m.ExportDialog), partFailed('The export dialog'));

type Tab = 'answers' | 'sources' | 'search';
const TABS: readonly Tab[] = ['answers', 'sources', 'search'];
const TAB_LABELS: Record<Tab, string> = { answers: 'Answers', sources: 'Sources', search: 'Search' };
const TAB_KEY = 'evidesk.leftTab';

function savedTab(): Tab {
  try {
    const saved = localStorage.getItem(TAB_KEY);
    return saved === 'answers' || saved === 'search' ? saved : 'sources';
  } catch {
    return 'sources';
  }
}

export function App() {
  const [info, setInfo] = useState<WorkspaceInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>(savedTab);
  const sourceCount = useLibrary((s) => s.count);
  const answerCount = useAnswers((s) => s.answers.length);
  const firstScreen = useFirstScreenShown();
  useCheckOnFocus();
  useLinkRoute();

  useEffect(() => {
    client
      .call('workspace.info', {})
      .then(setInfo)
      .catch((e: unknown) => setError(e instanceof ClientError ? e.message : String(e)));
  }, []);

  const choose = (t: Tab) => {
    setTab(t);
    try {
      localStorage.setItem(TAB_KEY, t);
    } catch {
      // A page without storage still switches tabs; it only forgets the choice.
    }
  };

  // Once drawn, the panels stay mounted, so ingest progress and the review keep their state across tabs.
  return (
    <div className="app">
      <header className="topbar">
        <h1>Evidence Desk</h1>
        {info && !info.shared && (
          <span className="workspace" title={info.path}>
            Workspace: {info.path} · {info.mode === 'browser' ? 'browser mode' : info.mode} · v{info.appVersion}
          </span>
        )}
        {info?.shared && (
          <span className="workspace" data-testid="shared-workspace" title={`postgres://${info.shared.login}@${info.shared.server}/${info.shared.database}`}>
            {sharedWorkspaceLine(info.shared)} · {info.mode === 'browser' ? 'browser mode' : info.mode} · v{info.appVersion}
          </span>
        )}
        {error && <span className="error" role="alert">{error}</span>}
      </header>
      <HostDownBanner />
      {info?.shared && <TeamBanner server={info.shared.server} />}
      <AuditBanner />
      <main className="panes">
        <div className="side">
          <div
            className="side-tabs"
            role="tablist"
            aria-label="Panels"
            onKeyDown={(e) => {
              if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
              const next = TABS[(TABS.indexOf(tab) + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length] ?? 'sources';
              choose(next);
              document.getElementById(`tab-${next}`)?.focus();
            }}
          >
            {TABS.map((t) => (
              <button key={t} type="button" role="tab" id={`tab-${t}`} aria-controls={`panel-${t}`} aria-selected={tab === t} tabIndex={tab === t ? 0 : -1} onClick={() => choose(t)}>
                {TAB_LABELS[t]} {t !== 'search' && <span className="tab-count">{t === 'answers' ? answerCount : sourceCount}</span>}
              </button>
            ))}
          </div>
          <div className="side-panel" role="tabpanel" id="panel-answers" aria-labelledby="tab-answers" hidden={tab !== 'answers'}>
            {(firstScreen || tab === 'answers') && (
              <Suspense fallback={<PartLoading what="the answers" />}>
                <AnswersPanel />
              </Suspense>
            )}
          </div>
          <div className="side-panel" role="tabpanel" id="panel-sources" aria-labelledby="tab-sources" hidden={tab !== 'sources'}>
            <LibraryPanel />
          </div>
          <div className="side-panel" role="tabpanel" id="panel-search" aria-labelledby="tab-search" hidden={tab !== 'search'}>
            {(firstScreen || tab === 'search') && (
              <Suspense fallback={<PartLoading what="search" />}>
                <SearchPanel />
              </Suspense>
            )}
          </div>
        </div>
        <div className="viewer-column">
          <LinkNotice />
          <CitationBar />
          <ViewerPanel />
        </div>
      </main>
      {firstScreen && (
        <Suspense fallback={null}>
          <RelinkDialog />
          <FindMissingDialog />
          <ExportDialog />
        </Suspense>
      )}
    </div>
  );
}
