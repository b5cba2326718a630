/** Test helpers that drive the API the way a client does: over HTTP and the run's WebSocket. */
import { SELF } from "cloudflare:test";
import { runEvent, type RunEvent } from "../../worker/shared/events";
import { openEventSocket, type EventSocket } from "./sockets";
import type { RunDetail } from "../../worker/shared/run";

import { BASE } from "./sockets";

export { BASE };

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

export type RunSocket = EventSocket<RunEvent>;

const END_EVENTS = new Set(["run.completed", "run.failed", "run.cancelled"]);

export function openSocket(id: string, since?: number): Promise<RunSocket> {
  return openEventSocket(`/api/runs/${id}/ws`, runEvent, since);
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
