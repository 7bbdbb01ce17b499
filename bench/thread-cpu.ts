/**
 * CPU time of Chromium's threads, read from Linux's /proc: on a machine shared with other
 * jobs, wall-clock latency measures the load as much as the page, while the CPU a thread
 * used does not grow with the load. Used by bench/playground.ts to split an edit's cost
 * between the page's main thread and its workers. Linux only; elsewhere it reports nothing.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const HZ = 100;

/** The descendants of a process (its renderer, GPU, utility processes for a browser launched by it). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(d));
      children.set(ppid, list);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const c of children.get(p) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/**
 * Milliseconds of CPU (user + system) per thread, summed over the renderer processes under
 * this process: `main` (the renderer's main thread, the page's JavaScript, style, layout and
 * paint), `worker` (dedicated workers: the compiler and Graphviz), `pool` (V8's background
 * compilers and GC, raster), `other`.
 */
export function rendererThreadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  if (!existsSync('/proc/self/stat')) return out;
  for (const pid of descendants(process.pid)) {
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.includes('--type=renderer')) continue;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        const name = tid === String(pid) ? 'main' : comm.startsWith('DedicatedWorker') ? 'worker' : comm.startsWith('ThreadPool') ? 'pool' : 'other';
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // fields 14 and 15 of stat (utime, stime) are 12 and 13 after the name
        const ms = ((Number(f[11]) + Number(f[12])) * 1000) / HZ;
        out.set(name, (out.get(name) ?? 0) + ms);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return out;
}

/** The CPU each thread name used between two readings. */
export function cpuSince(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const d = new Map<string, number>();
  for (const [k, v] of after) d.set(k, v - (before.get(k) ?? 0));
  return d;
}
