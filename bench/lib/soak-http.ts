/**
 * What the soak shares between its phases: every HTTP call through one counter (so a 5xx or a dropped
 * connection anywhere is seen), a seeded random source, and reads of the bench server's local D1.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ROOT, WRANGLER, wranglerEnv } from "./wrangler";

export interface Answered<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One line per status per route, 5xx and network errors kept with an example each. */
export class CountingHttp {
  /** route label → status → count (0 = network error, no answer) */
  readonly statuses = new Map<string, Map<number, number>>();
  readonly serverErrors: string[] = [];
  readonly networkErrors: string[] = [];
  /** WebSockets that did not open, or closed before their run ended */
  readonly socketTrouble: string[] = [];

  constructor(readonly base: string) {}

  private note(label: string, status: number) {
    const m = this.statuses.get(label) ?? new Map<number, number>();
    m.set(status, (m.get(status) ?? 0) + 1);
    this.statuses.set(label, m);
  }

  async call<T>(
    label: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    timeoutMs = 120_000,
  ): Promise<Answered<T>> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      this.note(label, 0);
      this.networkErrors.push(
        `${method} ${path}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`,
      );
      return { status: 0, headers: new Headers(), body: null as T };
    }
    this.note(label, res.status);
    if (res.status >= 500) this.serverErrors.push(`${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get fiveXX(): number {
    let n = 0;
    for (const m of this.statuses.values()) for (const [s, c] of m) if (s >= 500) n += c;
    return n;
  }

  get requests(): number {
    let n = 0;
    for (const m of this.statuses.values()) for (const c of m.values()) n += c;
    return n;
  }

  /** "POST /api/runs: 201 ×200 · GET /api/runs/:id: 200 ×410, …" */
  summary(): string[] {
    return [...this.statuses].map(
      ([label, m]) =>
        `${label}: ${[...m]
          .sort((a, b) => a[0] - b[0])
          .map(([s, c]) => `${s === 0 ? "no answer" : s} ×${c.toLocaleString("en-US")}`)
          .join(", ")}`,
    );
  }
}

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
    /** one of `weighted`'s keys, each as likely as its weight */
    weighted: <K extends string>(weighted: Record<K, number>): K => {
      const entries = Object.entries(weighted) as [K, number][];
      let x = next() * entries.reduce((s, [, w]) => s + w, 0);
      for (const [k, w] of entries) {
        x -= w;
        if (x < 0) return k;
      }
      return entries[entries.length - 1][0];
    },
    shuffle: <T>(items: T[]): T[] => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [items[i], items[j]] = [items[j], items[i]];
      }
      return items;
    },
  };
}
export type Random = ReturnType<typeof seeded>;

/** Rows of one query against the local D1 of a bench state folder (`wrangler d1 execute --local`, as bench/votes.ts does). */
export async function d1Rows<T extends Record<string, unknown>>(persistTo: string, sql: string): Promise<T[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [WRANGLER, "d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", sql],
    { cwd: ROOT, env: wranglerEnv(), timeout: 180_000, maxBuffer: 64 * 1024 * 1024 },
  );
  const parsed = JSON.parse(stdout) as { results: T[] }[];
  return parsed[0].results;
}
