import { execFileSync, spawnSync } from 'node:child_process';

/** One measured figure, printed beside its reference measured in the same run. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The reference tool's figure on the same input, when there is one. */
  reference?: { tool: string; value: number } | { tool: string; absent: string };
  /** The goal, e.g. { op: '>=', value: 0.75, of: 'ratio' } for "≥ 0.75× the reference". */
  goal?: { op: '>=' | '<='; value: number; of: 'value' | 'ratio' };
}

export interface BenchSection {
  title: string;
  figures: Figure[];
  notes?: string[];
}

/** A bench module: bench/<name>.bench.ts exporting `bench`. */
export type Bench = () => Promise<BenchSection[]>;

export function which(tool: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Wall time of a command, best of `runs`, in ms; null when the tool is absent. */
export function timeCommand(tool: string, args: string[], runs = 3): number | null {
  if (!which(tool)) return null;
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    execFileSync(tool, args, { stdio: 'ignore', maxBuffer: 1 << 30 });
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
}

export function formatSection(section: BenchSection): string {
  const lines = [`\n## ${section.title}`];
  for (const f of section.figures) {
    let line = `- ${f.name}: ${fmt(f.value)} ${f.unit}`;
    let ratio: number | undefined;
    if (f.reference && 'value' in f.reference) {
      ratio = f.value / f.reference.value;
      line += `  | ${f.reference.tool}: ${fmt(f.reference.value)} ${f.unit}  | ratio ${ratio.toFixed(2)}×`;
    } else if (f.reference) {
      line += `  | ${f.reference.tool}: absent (${f.reference.absent})`;
    }
    if (f.goal) {
      const subject = f.goal.of === 'ratio' ? ratio : f.value;
      const met = subject === undefined ? null : f.goal.op === '>=' ? subject >= f.goal.value : subject <= f.goal.value;
      line += `  | goal ${f.goal.op} ${f.goal.value}${f.goal.of === 'ratio' ? '×' : ` ${f.unit}`}: ${met === null ? 'n/a' : met ? 'met' : 'NOT met'}`;
    }
    lines.push(line);
  }
  for (const n of section.notes ?? []) lines.push(`  note: ${n}`);
  return lines.join('\n');
}
