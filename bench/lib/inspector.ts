/**
 * A devtools (Chrome DevTools Protocol) session with the Worker's isolate through wrangler's inspector: what the
 * profiler and the heap reader send their commands over.
 */
import { getJson } from "./client";

export interface InspectorSession {
  send<R>(method: string, params?: object, timeoutMs?: number): Promise<R>;
  close(): void;
}

export async function connectInspector(inspectorPort: number): Promise<InspectorSession> {
  const targets = await getJson<{ webSocketDebuggerUrl: string }[]>(`http://127.0.0.1:${inspectorPort}/json`);
  // wrangler's inspector proxy wants a local Origin (Node's WebSocket takes headers as an extension)
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl, {
    headers: { Origin: "http://localhost" },
  } as unknown as string[]);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve(), { once: true });
    ws.addEventListener("error", () => reject(new Error("inspector socket failed")), { once: true });
  });
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  ws.addEventListener("message", (m) => {
    const msg = JSON.parse(String(m.data)) as { id?: number; result?: unknown; error?: unknown };
    const p = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id!);
    if (msg.error) p.reject(new Error(JSON.stringify(msg.error)));
    else p.resolve(msg.result);
  });
  return {
    send: <R>(method: string, params: object = {}, timeoutMs = 60_000) =>
      new Promise<R>((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        ws.send(JSON.stringify({ id, method, params }));
        setTimeout(() => {
          if (pending.delete(id)) reject(new Error(`${method} timed out`));
        }, timeoutMs);
      }),
    close: () => ws.close(),
  };
}

/**
 * The isolate's JavaScript heap in use, in MiB: what the Worker and its Durable Objects hold, apart from workerd's
 * own memory (which RSS counts too); null when the inspector doesn't answer within a few seconds.
 */
export async function heapUsedMiB(session: InspectorSession): Promise<number | null> {
  try {
    const { usedSize } = await session.send<{ usedSize: number }>("Runtime.getHeapUsage", {}, 5_000);
    return usedSize / 1024 / 1024;
  } catch {
    return null;
  }
}

/**
 * The isolate's JavaScript heap in use right after a full collection, in MiB: taking a heap snapshot collects first
 * (workerd's inspector doesn't answer `HeapProfiler.collectGarbage`). The snapshot stops the isolate for seconds, so
 * read it only when nothing is being timed; null when the inspector doesn't answer.
 */
export async function liveHeapMiB(session: InspectorSession): Promise<number | null> {
  try {
    await session.send("HeapProfiler.enable", {}, 5_000);
    await session.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false }, 120_000);
    await session.send("HeapProfiler.disable", {}, 5_000);
  } catch {
    return null;
  }
  return heapUsedMiB(session);
}
