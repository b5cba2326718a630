/** Test helpers that drive the API the way a client does: over HTTP and the run's WebSocket. */
import { SELF } from "cloudflare:test";
import type { InferRequestType } from "hono/client";
import { type RunEvent, runEvent } from "../../worker/shared/events";
import type { RunDetail } from "../../worker/shared/run";
import { client, ok } from "./client";
import { BASE, type EventSocket, openEventSocket } from "./sockets";

export { BASE };

export async function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init;
  return SELF.fetch(`${BASE}/api${path}`, {
    ...rest,
    headers: json === undefined ? rest.headers : { "content-type": "application/json", ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
}

export type CreateRunBody = InferRequestType<typeof client.runs.$post>["json"];

export async function createRun(body: CreateRunBody): Promise<string> {
  return (await ok(client.runs.$post({ json: body }))).id;
}

export function getRun(id: string): Promise<RunDetail> {
  return ok(client.runs[":id"].$get({ param: { id } }));
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
