// The long form of the cancel stress test (issue 8, Done-when 5): 2,000 cancels at seeded random
// moments of a 320-page, inflate-heavy PDF's ingest through the real IngestService; three quarters
// stop the extraction children cooperatively, one quarter kill them at once mid-inflate. Prints the
// counts: cancels, survived, how the children stopped, and the time. EVIDESK_CANCELS=N runs fewer.
import { assertWorkspaceIntact, runCancelStress, STRESS_PAGES, type StressCounts } from '../test/support/cancel-stress.ts';
import { openTestServices } from '../test/support/workspace.ts';
import type { BenchSection, Figure } from './report.ts';

export async function bench(): Promise<BenchSection[]> {
  const total = Number(process.env.EVIDESK_CANCELS ?? 2000);
  const services = openTestServices();
  const broken: string[] = [];
  const check = (cond: boolean, what: string) => {
    if (!cond) broken.push(what);
  };
  const runs: [string, StressCounts][] = [];
  try {
    runs.push(['stopped at a page boundary', await runCancelStress(services, { cancels: Math.round(total * 0.75), seed: 1 })]);
    runs.push(['killed at once, mid-inflate', await runCancelStress(services, { cancels: total - Math.round(total * 0.75), seed: 2, graceMs: 0, children: 1 })]);
    const sources = assertWorkspaceIntact(services, check);
    const figures: Figure[] = [];
    for (const [how, c] of runs) {
      figures.push(
        { name: `cancels (${how})`, value: c.cancels, unit: '' },
        { name: `  survived`, value: c.survived, unit: '', goal: { op: '>=', value: c.cancels, of: 'value' } },
        { name: `  finished before the cancel landed`, value: c.completedFirst, unit: '' },
        { name: `  children stopped cooperatively`, value: c.pool.stoppedCooperatively, unit: '' },
        { name: `  children killed`, value: c.pool.killed, unit: '' },
        { name: `  children that died on their own`, value: c.pool.died, unit: '', goal: { op: '<=', value: 0, of: 'value' } },
        { name: `  other outcomes than CANCELLED or stored`, value: Object.values(c.other).reduce((a, b) => a + b, 0), unit: '', goal: { op: '<=', value: 0, of: 'value' } },
        { name: `  time`, value: c.ms / 1000, unit: 's' },
      );
    }
    figures.push({ name: 'workspace checks failed at the end', value: broken.length, unit: '', goal: { op: '<=', value: 0, of: 'value' } });
    return [{ title: `Cancel stress (${STRESS_PAGES}-page PDF)`, figures, notes: [`${sources} whole sources stored, none partial`, ...broken.slice(0, 5)] }];
  } finally {
    services.close();
  }
}
