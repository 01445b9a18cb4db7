/**
 * V8 flags for a process that ingests (the `evidesk` command, the browser-mode host; Electron's
 * main process would need them at launch, see electron/shell/main.ts): a small young generation.
 * Node 24 lets the semi-spaces grow to 64-128 MB while documents are stored. V8 reads the flag only at startup, so each launcher passes it: bin/evidesk.js
 * (which repeats it in plain JavaScript, as it runs before anything is built), package.json's start
 * script, and the ingest bench's child.
 *
 * Measured 2026-11-25 (issue 16 item 5, bench/ingest-child.ts, variants alternated in one session,
 * figures are this process's own peak PSS and own CPU time, children excluded): on the bench's four
 * large PDFs (r-fullrefman, octave, freeculture, gnuplot) the peak fell from 193 and 209 MB to 157 and
 * 167 MB, CPU 3.2 and 2.4 s without against 2.7 and 2.6 s with (no cost above the noise; the
 * whole tree's CPU 36.9 and 34.4 s against 35.3 and 35.2 s). On r-fullrefman.pdf alone, once the
 * CLI no longer loads the MCP SDK, pdf-lib and citation-js, both stayed within noise (128-134 MB,
 * 1.40-1.48 s CPU either way); before that, the flag alone cut its peak from 168-185 to 127-158 MB.
 */
export const INGESTING_PROCESS_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
