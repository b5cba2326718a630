/** The bench's client side: JSON calls to the API and a WebSocket that timestamps every event on arrival. */

export interface Received {
  at: number;
  event: { type: string; seq: number; [key: string]: unknown };
}

export interface EventStream {
  received: Received[];
  /** the first event, already received or still to come, that matches; rejects after `timeoutMs` */
  until(match: (e: Received["event"]) => boolean, what: string, timeoutMs?: number): Promise<Received>;
  close(): void;
}

export async function postJson<T>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Opens a WebSocket of live events (ws:// from an http:// base) and resolves once it is open. */
export async function openEvents(url: string, onEvent?: (r: Received) => void): Promise<EventStream> {
  const ws = new WebSocket(url.replace(/^http/, "ws"));
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  ws.addEventListener("message", (m) => {
    const at = performance.now();
    const r = { at, event: JSON.parse(String(m.data)) as Received["event"] };
    received.push(r);
    onEvent?.(r);
    for (const wake of waiters) wake();
  });
  let closed = false;
  let closeInfo = "";
  ws.addEventListener("close", (e) => {
    closed = true;
    closeInfo = `code ${e.code}${e.reason ? ` "${e.reason}"` : ""}`;
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error(`WebSocket ${url} failed to open`)), { once: true });
  });
  const until = (match: (e: Received["event"]) => boolean, what: string, timeoutMs = 60_000) =>
    new Promise<Received>((resolve, reject) => {
      const check = () => {
        const hit = received.find((r) => match(r.event));
        if (hit) {
          done();
          resolve(hit);
        } else if (closed) {
          done();
          reject(
            new Error(
              `the socket closed (${closeInfo}) before ${what}; got ${received.map((r) => r.event.type).join(", ")}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${what} within ${timeoutMs} ms; got ${received.map((r) => r.event.type).join(", ")}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { received, until, close: () => ws.close(1000, "done") };
}
