/**
 * A room's D1 write queue against the real D1: writes queued together go as one batch, a flush sends at
 * once, the window's timer sends without anyone flushing, and a deleted room's unsent writes are dropped.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as schema from "../../worker/db/schema";
import { insertRows, type Write } from "../../worker/db/statements";
import { WriteQueue } from "../../worker/rooms/write-queue";

let next = 0;

/** A queue on D1 that notes each batch it sends (its statements' count) and wakes whoever waits for one. */
function watchedQueue() {
  const batches: number[] = [];
  let wake: (() => void) | null = null;
  const watched = new Proxy(env.DB, {
    get(target, key) {
      if (key !== "batch") return Reflect.get(target, key, target);
      return async (writes: Write[]) => {
        batches.push(writes.length);
        const result = await target.batch(writes);
        wake?.();
        return result;
      };
    },
  });
  const nextBatch = (what: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no batch within 5 s: ${what}`)), 5_000);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  return { queue: new WriteQueue(watched, () => []), batches, nextBatch };
}

function spend(modelId: string): Write {
  return insertRows(env.DB, schema.spendEntries, [
    { kind: "answer", modelId, tokensIn: 1, tokensOut: 1, costUsd: 0, completedAt: Date.now() },
  ])[0];
}

async function stored(modelId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM spend_entries WHERE model_id = ?")
    .bind(modelId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("the room's D1 write queue", () => {
  it("sends writes queued in the same moment as one batch, at once when flushed", async () => {
    const { queue, batches } = watchedQueue();
    const model = `wq-flush-${++next}`;
    queue.push(spend(model));
    queue.push(spend(model), spend(model));
    await queue.flush();
    expect(batches).toEqual([3]);
    expect(await stored(model)).toBe(3);
  });

  it("sends queued writes by itself when nobody flushes", async () => {
    const { queue, batches, nextBatch } = watchedQueue();
    const model = `wq-timer-${++next}`;
    const sent = nextBatch("writes queued without a flush");
    queue.push(spend(model), spend(model));
    await sent;
    expect(batches).toEqual([2]);
    expect(await stored(model)).toBe(2);
  });

  it("takes writes queued while a batch is under way into the next batch", async () => {
    const { queue, batches } = watchedQueue();
    const model = `wq-next-${++next}`;
    queue.push(spend(model));
    const first = queue.flush();
    queue.push(spend(model), spend(model));
    await first;
    await queue.flush();
    expect(batches).toEqual([1, 2]);
    expect(await stored(model)).toBe(3);
  });

  it("drops unsent writes when the room is deleted", async () => {
    const { queue, batches } = watchedQueue();
    const model = `wq-discard-${++next}`;
    queue.push(spend(model));
    queue.discard();
    await queue.flush();
    expect(batches).toEqual([]);
    expect(await stored(model)).toBe(0);
  });
});
