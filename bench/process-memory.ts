/**
 * Peak resident memory of this process and all its descendants (Chromium, extraction children),
 * sampled from /proc while some work runs. Linux only; elsewhere it reports this process alone.
 */
import fs from 'node:fs';

const PAGE_KB = 4;

/** CPU ticks (user + system) of each process below `root` seen in the last look. */
const cpuTicks = new Map<number, number>();

/**
 * Processes known not to be below the root: a process's parent is fixed when it starts, so these
 * are not read again. Reading every process's /proc/PID/stat 20 times a second cost the bench
 * process more CPU than the export it measured (a quarter of a core on a busy machine).
 */
const outside = new Set<number>();
/** Parents of the processes below the root, as first read. */
const parents = new Map<number, number>();

function readStat(pid: number): { parent: number; rssKb: number; ticks: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(fields[1]), rssKb: Number(fields[21]) * PAGE_KB, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // The process ended while we looked.
  }
}

/** Resident kB of every process below `root`, `root` included; notes their CPU ticks in cpuTicks. */
function treeRssKb(root: number): number {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return process.memoryUsage().rss / 1024;
  }
  // A pid gone from /proc may come back as another process: forget it.
  const listed = new Set(entries.map(Number));
  for (const pid of outside) if (!listed.has(pid)) outside.delete(pid);
  const stats = new Map<number, { parent: number; rssKb: number; ticks: number }>();
  for (const e of entries) {
    const pid = Number(e);
    if (outside.has(pid)) continue;
    const st = readStat(pid);
    if (st) stats.set(pid, st);
  }
  const inTree = (pid: number): boolean => {
    let p: number | undefined = pid;
    for (let hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
      if (p === root) return true;
      if (outside.has(p)) return false;
      p = stats.get(p)?.parent ?? parents.get(p);
    }
    return false;
  };
  let total = 0;
  for (const [pid, st] of stats) {
    if (pid === root || inTree(pid)) {
      parents.set(pid, st.parent);
      total += st.rssKb;
      cpuTicks.set(pid, st.ticks);
    } else outside.add(pid);
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
