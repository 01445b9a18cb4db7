// The scale bench's verification process: imports (and so verifies, in batches) an answer file into
// a workspace, as the app's host does, and prints its time, when the first batch was stored (the
// first cards can show) and its peak RSS. A module of its own so that the figure is the
// verification's, not the bench's browser tooling (Playwright alone adds about 50 MB).
import fs from 'node:fs';
import path from 'node:path';
import { createServices } from '../electron/services/create-services.ts';
import { testPlatform } from '../test/support/workspace.ts';

const [workspace = '', answerFile = ''] = process.argv.slice(2);
const services = createServices(testPlatform(), workspace);
let firstBatchMs: number | null = null;
let batches = 0;
const t0 = performance.now();
services.events.subscribe((e) => {
  if (e.type !== 'answers.verifyProgress' || e.phase !== 'verifying') return;
  batches++;
  firstBatchMs ??= performance.now() - t0;
});
// What the app's import does: a summary back, the citations read by page when the answer opens.
const reply = await services.dispatch('answers.importSummary', { content: fs.readFileSync(answerFile, 'utf8'), fileName: path.basename(answerFile) });
const ms = performance.now() - t0;
services.close();
if (!reply.ok) throw new Error(reply.error.message);
process.stdout.write(`@@VERIFY@@${JSON.stringify({ ms, firstBatchMs, batches, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
