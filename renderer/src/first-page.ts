// The page's first script (issue 16): it asks for the library's first page while the app's code is
// still being fetched and evaluated, so that the host's reply is there when the list is first drawn.
// It imports nothing (a few hundred bytes, built to /first-page.js); library-store.ts takes the
// reply through api/early-calls.ts, and asks itself when this script did not run or its call failed.
import type { Envelope } from '../../shared/contract/envelope.ts';
import type { EarlyCall } from './api/early-calls.ts';

// The library's first screen: newest first, unfiltered, one page (library-store.ts's LIBRARY_PAGE).
const input = { filter: {}, sort: 'added', dir: 'desc', limit: 100 };

function ask(): Promise<unknown> {
  if (window.evidence) return window.evidence.invoke('sources.page', input);
  return fetch('/api/sources.page', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  }).then((response) => (response.ok ? response.json() : null));
}

const call: EarlyCall = { name: 'sources.page', input, reply: ask().then((r) => r as Envelope<unknown> | null, () => null) };
(window.__evideskEarlyCalls ??= []).push(call);
