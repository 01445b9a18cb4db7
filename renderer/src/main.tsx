import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-pdf/dist/Page/TextLayer.css';
import './styles.css';
import { App } from './app/App.tsx';
import { afterFirstScreen } from './app/first-screen.ts';
import { loadFlowViewer, loadPdfViewer } from './features/viewer/ViewerPanel.tsx';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // Once the first screen is drawn, the readers' code loads and the PDF reader's worker starts
  // while the window is idle: the first quote opened need not wait for them.
  afterFirstScreen(() => {
    // A chunk that fails here is fetched again when a document is opened.
    loadFlowViewer().catch(() => undefined);
    loadPdfViewer()
      .then(() => import('./features/viewer/pdfjs-setup.ts'))
      .then((m) => m.warmPdfWorker())
      .catch(() => undefined);
  });
}
