/**
 * Peak resident memory of this process and all its descendants (Chromium, extraction children),
 * sampled from /proc while some work runs. Linux only; elsewhere it reports this process alone.
 */
import fs from 'node:fs';

const PAGE_KB = 4;

/** Resident kB of every process below `root`, `root` included. */
function treeRssKb(root: number): number {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return process.memoryUsage().rss / 1024;
  }
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const e of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields are counted after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(e), Number(fields[1]));
      rss.set(Number(e), Number(fields[21]) * PAGE_KB);
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
        break;
      }
      p = parent.get(p);
    }
  }
  return total;
}

export interface TreeRssSampler {
  /** Stops sampling; the peaks in MB. */
  stop(): { treeMb: number };
}

export function treeRssSampler(everyMs = 50): TreeRssSampler {
  let peak = treeRssKb(process.pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssKb(process.pid));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, treeRssKb(process.pid));
      return { treeMb: peak / 1024 };
    },
  };
}
