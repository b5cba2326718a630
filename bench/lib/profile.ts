/**
 * Samples the Worker's JavaScript (its isolate: routes and Durable Objects alike) through wrangler's devtools
 * inspector while `work` runs, and sums self time per function and per source area: profiling evidence for
 * where a missed target's time goes, without touching the Worker.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { connectInspector, type InspectorSession } from "./inspector";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The sampling interval asked of V8, in microseconds. */
const SAMPLE_US = 200;
/**
 * The most one sample stands for. workerd's isolate takes no samples while it runs no JavaScript (waiting on
 * I/O, or the thread busy elsewhere), so the sample after such a wait carries the whole wait in its time
 * delta: a 300 ms provider call once showed up as 300 ms "in" the function that awaited it. A sample counts
 * for its delta up to twice the interval; the rest of a gap is time the isolate ran no JavaScript.
 */
const MAX_SAMPLE_US = 2 * SAMPLE_US;

export interface ProfileSummary {
  totalMs: number;
  /** the part of totalMs the isolate spent running JavaScript */
  busyMs: number;
  functions: { name: string; ms: number }[];
  areas: { area: string; ms: number }[];
}

function areaOf(url: string): string {
  if (!url) return "(native: runtime built-ins, GC)";
  // drizzle-orm's source maps name its files src/…, which the bundle's map resolves under node_modules/src/
  if (url.includes("node_modules/src/")) return "dependency drizzle-orm";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return `dependency ${m[1]}`;
  const w = /(worker\/[^/]+)\//.exec(url);
  if (w) return `Quorum ${w[1]}/`;
  if (/wrangler|miniflare|cloudflare-internal|workers-sdk/.test(url)) return "wrangler/miniflare shims";
  return url.split("/").slice(-2).join("/");
}

/** Maps positions in the bundle back to the sources, so time is attributed to worker/… files and packages. */
function sourceMapper(mapFile: string | undefined): (f: CallFrame) => { file: string; line: number } {
  let map: SourceMap | null = null;
  try {
    if (mapFile) map = new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")));
  } catch {
    map = null;
  }
  return (f) => {
    if (map && f.url.endsWith("index.js")) {
      const entry = map.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number };
      if (entry?.originalSource) return { file: entry.originalSource, line: (entry.originalLine ?? 0) + 1 };
    }
    return { file: f.url, line: f.lineNumber + 1 };
  };
}

export async function profileWorker<T>(
  inspectorPort: number,
  work: () => Promise<T>,
  sourceMap?: string,
): Promise<{ value: T; summary: ProfileSummary | null; error?: string }> {
  let session: InspectorSession;
  try {
    session = await connectInspector(inspectorPort);
  } catch (err) {
    return { value: await work(), summary: null, error: String(err) };
  }
  try {
    return await profileOver(session, work, sourceMap);
  } finally {
    session.close();
  }
}

/** The same over a session already open (wrangler's inspector takes one at a time). */
export async function profileOver<T>(
  session: InspectorSession,
  work: () => Promise<T>,
  sourceMap?: string,
): Promise<{ value: T; summary: ProfileSummary | null; error?: string }> {
  const send = session.send;
  try {
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: SAMPLE_US });
    await send("Profiler.start");
  } catch (err) {
    return { value: await work(), summary: null, error: String(err) };
  }
  const value = await work();
  try {
    const { profile } = await send<{ profile: CpuProfile }>("Profiler.stop");
    return { value, summary: summarize(profile, sourceMapper(sourceMap)) };
  } catch (err) {
    return { value, summary: null, error: String(err) };
  }
}

function summarize(profile: CpuProfile, original: (f: CallFrame) => { file: string; line: number }): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const fn = new Map<string, number>();
  const area = new Map<string, number>();
  const total = (profile.endTime - profile.startTime) / 1000;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const dt = Math.min(profile.timeDeltas[i] ?? 0, MAX_SAMPLE_US) / 1000;
    const f = byId.get(id)!.callFrame;
    if (f.functionName === "(idle)") return;
    busy += dt;
    const src = original(f);
    const name = `${f.functionName || "(anonymous)"} ${src.file.split("/").slice(-2).join("/")}:${src.line}`;
    fn.set(name, (fn.get(name) ?? 0) + dt);
    const a = areaOf(src.file);
    area.set(a, (area.get(a) ?? 0) + dt);
  });
  const sorted = (m: Map<string, number>) => [...m].sort((x, y) => y[1] - x[1]);
  return {
    totalMs: total,
    busyMs: Math.min(busy, total),
    functions: sorted(fn)
      .slice(0, 25)
      .map(([name, ms]) => ({ name, ms })),
    areas: sorted(area)
      .slice(0, 10)
      .map(([area, ms]) => ({ area, ms })),
  };
}

/** "Worker JS busy 8% of the profiled 0.8 s; by area: Quorum worker/rooms/ 19% · …", then the hottest functions. */
export function describeProfile(s: ProfileSummary | null, error?: string): string[] {
  if (!s) return [`(no profile: ${error ?? "inspector unavailable"})`];
  const busy = s.busyMs;
  const pct = (ms: number) => `${((100 * ms) / Math.max(busy, 1e-9)).toFixed(0)}%`;
  return [
    `Worker JS busy ${((100 * busy) / Math.max(s.totalMs, 1e-9)).toFixed(0)}% of the profiled ${(s.totalMs / 1000).toFixed(1)} s; by area: ${s.areas.map((a) => `${a.area} ${pct(a.ms)}`).join(" · ")}`,
    `hottest functions (self time): ${s.functions.map((f) => `${f.name} ${pct(f.ms)}`).join(" · ")}`,
  ];
}
