/**
 * Peak resident memory of this process and all its descendants (Chromium, extraction children),
 * sampled from /proc while some work runs. Linux only; elsewhere it reports this process alone.
 */
import fs from 'node:fs';

const PAGE_KB = 4;

/** CPU ticks (user + system) of each process below `root` seen in the last look. */
const cpuTicks = new Map<number, number>();

/** Resident kB of every process below `root`, `root` included; notes their CPU ticks in cpuTicks. */
function treeRssKb(root: number): number {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return process.memoryUsage().rss / 1024;
  }
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const e of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields are counted after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(e), Number(fields[1]));
      rss.set(Number(e), Number(fields[21]) * PAGE_KB);
      ticks.set(Number(e), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  for (const [pid, kb] of rss) {
    let p: number | undefined = pid;
    for (let hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
      if (p === root) {
        total += kb;
        cpuTicks.set(pid, ticks.get(pid) ?? 0);
        break;
      }
      p = parent.get(p);
    }
  }
  return total;
}

export interface TreeRssSampler {
  /**
   * Stops sampling; the peak in MB, and the CPU seconds this process and its children spent
   * meanwhile (a child's last 50 ms before it exits may be missed). CPU time hardly depends on what
   * else loads the machine, unlike wall time: compare versions by it on a busy machine.
   */
  stop(): { treeMb: number; cpuSeconds: number };
}

/** Clock ticks per second as Linux reports them in /proc (USER_HZ, 100 on every common build). */
const TICKS_PER_SECOND = 100;

export function treeRssSampler(everyMs = 50): TreeRssSampler {
  cpuTicks.clear();
  let peak = treeRssKb(process.pid);
  const baseline = new Map(cpuTicks);
  const latest = new Map<number, number>();
  const note = () => {
    for (const [pid, t] of cpuTicks) latest.set(pid, t);
  };
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssKb(process.pid));
    note();
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, treeRssKb(process.pid));
      note();
      let ticks = 0;
      for (const [pid, t] of latest) ticks += t - (baseline.get(pid) ?? 0);
      return { treeMb: peak / 1024, cpuSeconds: ticks / TICKS_PER_SECOND };
    },
  };
}
