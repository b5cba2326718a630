/** Test helpers that drive the API the way a client does: over HTTP and the run's WebSocket. */
import { SELF } from "cloudflare:test";
import { runEvent, type RunEvent } from "../../worker/shared/events";
import type { RunDetail } from "../../worker/shared/run";

export const BASE = "http://quorum.test";

export async function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init;
  return SELF.fetch(`${BASE}/api${path}`, {
    ...rest,
    headers: json === undefined ? rest.headers : { "content-type": "application/json", ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
}

export async function createRun(body: unknown): Promise<string> {
  const res = await api("/runs", { method: "POST", json: body });
  if (res.status !== 201) throw new Error(`POST /runs answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

export async function getRun(id: string): Promise<RunDetail> {
  const res = await api(`/runs/${id}`);
  if (res.status !== 200) throw new Error(`GET /runs/${id} answered ${res.status}`);
  return res.json();
}

export interface RunSocket {
  events: RunEvent[];
  /** resolves with the first event, already received or still to come, that matches */
  until(match: (e: RunEvent) => boolean, what: string, timeoutMs?: number): Promise<RunEvent>;
  waitFor<T extends RunEvent["type"]>(type: T, match?: (e: Extract<RunEvent, { type: T }>) => boolean, timeoutMs?: number): Promise<Extract<RunEvent, { type: T }>>;
  close(): void;
}

const END_EVENTS = new Set(["run.completed", "run.failed", "run.cancelled"]);

export async function openSocket(id: string, since?: number): Promise<RunSocket> {
  const query = since === undefined ? "" : `?since=${since}`;
  const res = await SELF.fetch(`${BASE}/api/runs/${id}/ws${query}`, { headers: { Upgrade: "websocket" } });
  const ws = res.webSocket;
  if (!ws) throw new Error(`no WebSocket: ${res.status} ${await res.text()}`);
  ws.accept();
  const events: RunEvent[] = [];
  const waiters = new Set<() => void>();
  ws.addEventListener("message", (m) => {
    const parsed = runEvent.safeParse(JSON.parse(String(m.data)));
    if (!parsed.success) throw new Error(`an event did not match the shared schema: ${String(m.data).slice(0, 300)}`);
    events.push(parsed.data);
    for (const wake of waiters) wake();
  });
  const until = (match: (e: RunEvent) => boolean, what: string, timeoutMs = 15_000) =>
    new Promise<RunEvent>((resolve, reject) => {
      const found = events.find(match);
      if (found) return resolve(found);
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms; got: ${events.map((e) => e.type).join(", ")}`));
      }, timeoutMs);
      const check = () => {
        const hit = events.find(match);
        if (!hit) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(hit);
      };
      waiters.add(check);
    });
  return {
    events,
    until,
    waitFor: (type, match = () => true, timeoutMs) =>
      until((e) => e.type === type && match(e as never), `${type} event`, timeoutMs) as never,
    close: () => ws.close(1000, "done"),
  };
}

/** Waits, through its live events, until the run reaches an end state; returns what the API then reports. */
export async function finished(id: string, timeoutMs = 15_000): Promise<RunDetail> {
  const socket = await openSocket(id, 0);
  try {
    await socket.until((e) => END_EVENTS.has(e.type), "end of the run", timeoutMs);
  } finally {
    socket.close();
  }
  return getRun(id);
}

/** Does `action` to a run that has ended, then waits for the run to end again. */
export async function finishedAgain(id: string, action: () => Promise<void>, timeoutMs = 15_000): Promise<RunDetail> {
  const socket = await openSocket(id);
  try {
    const snapshot = await socket.waitFor("snapshot");
    await action();
    await socket.until((e) => e.seq > snapshot.seq && END_EVENTS.has(e.type), "end of the run", timeoutMs);
  } finally {
    socket.close();
  }
  return getRun(id);
}
