import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-pdf/dist/Page/TextLayer.css';
import './styles.css';
import { App } from './app/App.tsx';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
