import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * CPU figures from /proc (Linux), for the scale harness to show where the cores go: the CPU time of a
 * process tree and the machine's busy share. USER_HZ is 100 on Linux, so one tick is 10 ms.
 */
const TICK_MS = 10;

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** R, S, D, Z (a zombie: dead, waiting to be reaped), ... */
  state: string;
  /** utime + stime + cutime + cstime, in ms: the process's threads and its children already reaped. */
  cpuMs: number;
}

function readStat(pid: number | string): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid: Number(pid),
      ppid: Number(fields[1]),
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      state: fields[0],
      cpuMs: (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS,
    };
  } catch {
    return null;
  }
}

function servesDatabase(pid: number, database: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').split(' ').includes(database);
  } catch {
    return false;
  }
}

function allStats(): ProcStat[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readStat(entry))
    .filter((stat): stat is ProcStat => stat !== null);
}

/**
 * CPU ms used so far by each root process with all its live descendants (worker-preview's compile
 * processes, worker-render's Chromium), keyed by root pid, plus the PostgreSQL processes (by pid) under
 * `postgres` (the backends connected to `database` when given: "postgres: user database host(port) state")
 * and `redis` (the whole server: every client's work, other tests' included).
 */
export function treeCpuMs(rootPids: number[], database?: string): { perPid: Map<number, number>; postgres: Map<number, number>; redis: number } {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const byPid = new Map(stats.map((stat) => [stat.pid, stat]));
  const tree = (pid: number): number => (byPid.get(pid)?.cpuMs ?? 0) + (children.get(pid) ?? []).reduce((sum, child) => sum + tree(child.pid), 0);
  return {
    perPid: new Map(rootPids.filter((pid) => byPid.has(pid)).map((pid) => [pid, tree(pid)])),
    postgres: new Map(
      stats.filter((stat) => stat.comm === 'postgres' && (!database || servesDatabase(stat.pid, database))).map((stat) => [stat.pid, stat.cpuMs]),
    ),
    redis: stats.filter((stat) => stat.comm === 'redis-server').reduce((sum, stat) => sum + stat.cpuMs, 0),
  };
}

/** The machine's CPU counters (all cores) from /proc/stat, in ticks. */
export function machineCpu(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number);
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { busy: total - idle - iowait, total };
}

export const CORES = cpus().length;

/**
 * A CPU meter over one phase: `roots()` gives the deployment's pids per kind (read again at every sample,
 * so replicas that join are counted from their start). It samples every 500 ms, so a replica that leaves
 * mid-phase keeps the CPU it used until its last sample. `read(requests)` stops it and gives CPU ms per
 * request per kind, the cores the deployment used, the machine's busy share and the ceiling those imply.
 * `database`: count only the PostgreSQL backends connected to it (the server may serve other tests).
 */
export function cpuMeter(roots: () => Record<string, number[]>, database?: string) {
  // Per process: its CPU at its first and its last sample. A process that appears mid-phase (a replica
  // joining, a new database connection) counts from 0; one that ends keeps what it used until its last sample.
  const kindOf = new Map<number, string>();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let redisFirst: number | undefined;
  let redisLast = 0;
  let sampled = false;
  const note = (pid: number, kind: string, ms: number) => {
    kindOf.set(pid, kind);
    if (!first.has(pid)) first.set(pid, sampled ? 0 : ms);
    last.set(pid, ms);
  };
  const sample = () => {
    const pids = roots();
    const rootPids = Object.values(pids).flat();
    for (const [kind, list] of Object.entries(pids)) for (const pid of list) kindOf.set(pid, kind);
    const { perPid, postgres, redis } = treeCpuMs(
      [...new Set([...rootPids, ...[...kindOf].filter(([, kind]) => kind !== 'postgres').map(([pid]) => pid)])],
      database,
    );
    for (const [pid, ms] of perPid) note(pid, kindOf.get(pid)!, ms);
    for (const [pid, ms] of postgres) note(pid, 'postgres', ms);
    redisFirst ??= redis;
    redisLast = redis;
    sampled = true;
  };
  sample();
  const machineBefore = machineCpu();
  const started = Date.now();
  const timer = setInterval(sample, 500);
  return {
    read(requests: number) {
      clearInterval(timer);
      sample();
      const machineAfter = machineCpu();
      const seconds = (Date.now() - started) / 1000;
      const used: Record<string, number> = {};
      for (const [pid, kind] of kindOf) used[kind] = (used[kind] ?? 0) + Math.max(0, (last.get(pid) ?? 0) - (first.get(pid) ?? 0));
      used.redis = redisLast - (redisFirst ?? redisLast);
      const ours = Object.values(used).reduce((sum, ms) => sum + ms, 0);
      const perRequest = (ms: number) => Math.round((ms / Math.max(1, requests)) * 10) / 10;
      return {
        seconds: Math.round(seconds * 10) / 10,
        cpuMsPerRequest: Object.fromEntries(Object.entries(used).map(([kind, ms]) => [kind, perRequest(ms)])),
        /** All of the deployment's processes and the stores, per request. */
        totalCpuMsPerRequest: perRequest(ours),
        /** Cores the deployment (and the stores) kept busy over the phase, of CORES. */
        deploymentCoresUsed: Math.round((ours / 1000 / seconds) * 100) / 100,
        /** The machine's busy share over the phase (every process on it, other tests' too). */
        machineBusyPercent: Math.round(((machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total)) * 1000) / 10,
        /** The most requests per second all cores could serve at this CPU cost per request. */
        ceilingPerSecond: Math.round(((CORES * 1000) / Math.max(1, ours / Math.max(1, requests))) * 10) / 10,
      };
    },
  };
}

/** Every live descendant of `pid` (children, their children, ...), from /proc. */
export function descendantPids(pid: number): number[] {
  const stats = allStats();
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const stat of stats) {
      if (stat.ppid !== parent || found.includes(stat.pid)) continue;
      found.push(stat.pid);
      walk(stat.pid);
    }
  };
  walk(pid);
  return found;
}

/** Those of `pids` that still run (a zombie, dead and waiting to be reaped, does not). */
export function stillRunning(pids: number[]): number[] {
  return pids.filter((pid) => {
    const state = readStat(pid)?.state;
    return state !== undefined && state !== 'Z';
  });
}
