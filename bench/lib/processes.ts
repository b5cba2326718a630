/**
 * Child processes the bench starts, each in its own process group so stopping it stops what it started
 * (wrangler → workerd). Every one is stopped by its own pid at the end, on failure and on Ctrl+C too.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const live = new Set<ChildProcess>();

export function spawnTracked(command: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...opts, detached: true });
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

function signalGroup(child: ChildProcess, sig: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    // the group is gone already
  }
}

/** SIGTERM to the child's process group, SIGKILL after `graceMs`; resolves when the child has exited. */
export async function stopTracked(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    signalGroup(child, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  }
  // workerd may outlive wrangler for a moment: make sure nothing of the group is left.
  signalGroup(child, "SIGKILL");
  live.delete(child);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((c) => stopTracked(c)));
}

let hooked = false;
/** Stops every tracked child on exit, Ctrl+C and SIGTERM (by pid, never by name). */
export function installCleanup(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", () => {
    for (const child of live) signalGroup(child, "SIGKILL");
  });
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      console.error(`\n${sig}: stopping ${live.size} child process group(s)…`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

// ---- memory of a process tree, from /proc ----

interface ProcInfo {
  pid: number;
  ppid: number;
  name: string;
}

function procInfo(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const name = stat.slice(stat.indexOf("(") + 1, close);
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    return { pid, ppid, name };
  } catch {
    return null;
  }
}

/** `pid` and all its descendants that are alive now. */
export function processTree(pid: number): ProcInfo[] {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((d) => procInfo(Number(d)))
    .filter((p): p is ProcInfo => p !== null);
  const out: ProcInfo[] = [];
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    const info = all.find((x) => x.pid === p);
    if (info) out.push(info);
    for (const c of all) if (c.ppid === p) todo.push(c.pid);
  }
  return out;
}

/** VmRSS and VmHWM (peak resident set) in KiB; null when the process is gone. */
export function memoryOf(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { rssKb: field("VmRSS"), hwmKb: field("VmHWM") };
  } catch {
    return null;
  }
}

/** Resets a process's peak RSS (Linux ≥ 4.0, own processes); false when the kernel refused. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples a process tree every `everyMs`: the highest peak RSS seen per process (VmHWM is the kernel's own
 * high-water mark, so a spike between two samples is not missed) and a timeline of current RSS per name.
 */
export function memorySampler(rootPid: number, everyMs = 100) {
  const peakByPid = new Map<number, { name: string; hwmKb: number }>();
  const timeline: { at: number; rssKb: Record<string, number> }[] = [];
  const started = performance.now();
  const sample = () => {
    const rssKb: Record<string, number> = {};
    for (const p of processTree(rootPid)) {
      const m = memoryOf(p.pid);
      if (!m) continue;
      rssKb[p.name] = (rssKb[p.name] ?? 0) + m.rssKb;
      const prev = peakByPid.get(p.pid);
      if (!prev || m.hwmKb > prev.hwmKb) peakByPid.set(p.pid, { name: p.name, hwmKb: m.hwmKb });
    }
    timeline.push({ at: performance.now() - started, rssKb });
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    sample,
    /** peak RSS per process name in MiB (summed over processes of one name), and the RSS timeline */
    stop(): { peakMiB: Record<string, number>; processes: number; rssAt: (fraction: number, name: string) => number } {
      clearInterval(timer);
      sample();
      const peakMiB: Record<string, number> = {};
      for (const { name, hwmKb } of peakByPid.values()) peakMiB[name] = (peakMiB[name] ?? 0) + hwmKb / 1024;
      const end = timeline.at(-1)?.at ?? 0;
      const rssAt = (fraction: number, name: string) => {
        const at = end * fraction;
        const point = timeline.reduce(
          (best, p) => (Math.abs(p.at - at) < Math.abs(best.at - at) ? p : best),
          timeline[0],
        );
        return (point?.rssKb[name] ?? Number.NaN) / 1024;
      };
      return { peakMiB, processes: peakByPid.size, rssAt };
    },
  };
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux

/** CPU seconds (user + system) used so far by each process of a tree, summed by process name. */
export function cpuSecondsByName(rootPid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of processTree(rootPid)) {
    try {
      const stat = readFileSync(`/proc/${p.pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // fields[0] is field 3 (state): utime is field 14, stime field 15
      const ticks = Number(fields[11]) + Number(fields[12]);
      out[p.name] = (out[p.name] ?? 0) + ticks / TICKS_PER_SECOND;
    } catch {
      // gone
    }
  }
  return out;
}

/** Busy and total CPU ticks of the whole machine (every process, anyone's), from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + (cpu[4] ?? 0);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * Measures where CPU went while `work` ran: the server's processes (by name) and this process, as cores used
 * (CPU seconds per wall second) — on a 2-core machine, 2 means the work was CPU-bound.
 */
export async function cpuDuring<T>(
  serverPid: number,
  work: () => Promise<T>,
): Promise<{ value: T; seconds: number; cpu: Record<string, number> }> {
  const before = cpuSecondsByName(serverPid);
  const machineBefore = machineTicks();
  const self = process.cpuUsage();
  const t = performance.now();
  const value = await work();
  const seconds = (performance.now() - t) / 1000;
  const after = cpuSecondsByName(serverPid);
  const used = process.cpuUsage(self);
  const cpu: Record<string, number> = {};
  for (const [name, s] of Object.entries(after)) cpu[`server ${name}`] = s - (before[name] ?? 0);
  cpu["bench process (client and stub)"] = (used.user + used.system) / 1e6;
  const machineAfter = machineTicks();
  // the whole machine, every process of every user: what the others running here left us
  cpu["whole machine"] = (machineAfter.busy - machineBefore.busy) / TICKS_PER_SECOND;
  return { value, seconds, cpu };
}

/** "workerd 1.52 cores · node 0.10 cores · …" */
export function coresUsed(cpu: Record<string, number>, seconds: number): string {
  return Object.entries(cpu)
    .filter(([, s]) => s > 0.005 * seconds)
    .map(([name, s]) => `${name} ${(s / seconds).toFixed(2)} cores`)
    .join(" · ");
}
