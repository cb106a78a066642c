import { readdirSync, readFileSync } from 'node:fs';

const TICKS = 100; // USER_HZ: /proc stat times are in clock ticks

/**
 * CPU seconds (user + system) spent so far by the process `root` and by its descendants (an
 * embedded PostgreSQL), read from /proc: what a system under test costs, whatever else the
 * machine runs meanwhile.
 */
export function cpuSecondsOfTree(root: number): { node: number; others: number } {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      stats.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = stats.get(p)?.ppid) if (p === root) return true;
    return false;
  };
  let node = 0;
  let others = 0;
  for (const [pid, s] of stats) {
    if (!inTree(pid)) continue;
    if (pid === root) node += s.ticks;
    else others += s.ticks;
  }
  return { node: node / TICKS, others: others / TICKS };
}

/** The tree's total CPU seconds. */
export function cpuOfTree(root: number): number {
  const { node, others } = cpuSecondsOfTree(root);
  return node + others;
}
