import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-pdf/dist/Page/TextLayer.css';
import './styles.css';
import { App } from './app/App.tsx';
// After every other stylesheet: the dark scheme's colours (they also win by specificity).
import './dark-mode.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
