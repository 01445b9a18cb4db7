import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-pdf/dist/Page/TextLayer.css';
import './styles.css';
import { App } from './app/App.tsx';
import { warmPdfWorker } from './features/viewer/pdfjs-setup.ts';
// After every other stylesheet: the dark scheme's colours (they also win by specificity).
import './dark-mode.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // The PDF reader's worker starts while the window is idle: the first quote opened need not wait for it.
  warmPdfWorker();
}
