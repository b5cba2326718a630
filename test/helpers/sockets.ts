/** A WebSocket of live events, opened through the Worker as a client would, every frame checked against the shared union. */
import { runInDurableObject, SELF } from "cloudflare:test";
import { DELTA_MARK_KEY } from "../../worker/rooms/event-log";

export const BASE = "http://127.0.0.1";

interface Schema<E> {
  safeParse(value: unknown): { success: true; data: E } | { success: false };
}

export interface EventSocket<E extends { type: string; seq: number }> {
  events: E[];
  /** resolves with the first event, already received or still to come, that matches */
  until(match: (e: E) => boolean, what: string, timeoutMs?: number): Promise<E>;
  waitFor<T extends E["type"]>(
    type: T,
    match?: (e: Extract<E, { type: T }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<E, { type: T }>>;
  close(): void;
}

export async function openEventSocket<E extends { type: string; seq: number }>(
  path: string,
  schema: Schema<E>,
  since?: number,
): Promise<EventSocket<E>> {
  const query = since === undefined ? "" : `?since=${since}`;
  const res = await SELF.fetch(`${BASE}${path}${query}`, { headers: { Upgrade: "websocket" } });
  const ws = res.webSocket;
  if (!ws) throw new Error(`no WebSocket: ${res.status} ${await res.text()}`);
  ws.accept();
  const events: E[] = [];
  const waiters = new Set<() => void>();
  ws.addEventListener("message", (m) => {
    const parsed = schema.safeParse(JSON.parse(String(m.data)));
    if (!parsed.success) throw new Error(`an event did not match the shared schema: ${String(m.data).slice(0, 300)}`);
    events.push(parsed.data);
    for (const wake of waiters) wake();
  });
  const until = (match: (e: E) => boolean, what: string, timeoutMs = 15_000) =>
    new Promise<E>((resolve, reject) => {
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

type StoredEvent = { type: string; seq: number; [k: string]: unknown };

/** The events a room's storage holds, oldest first (deltas never are); call inside the room (runInDurableObject). */
export function storedEvents(storage: DurableObjectStorage): StoredEvent[] {
  return storage.sql
    .exec<{ body: string }>("SELECT body FROM events ORDER BY seq")
    .toArray()
    .map((r) => JSON.parse(r.body) as StoredEvent);
}

/** What a room keeps in its own storage: its stored events and the mark above trailing deltas. */
export function storedLog(room: DurableObjectStub): Promise<{ events: StoredEvent[]; deltaMark: number | undefined }> {
  return runInDurableObject(room, (_instance, state) => ({
    events: storedEvents(state.storage),
    deltaMark: state.storage.kv.get<number>(DELTA_MARK_KEY),
  }));
}
