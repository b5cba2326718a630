import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { Reply } from "../../worker/rooms/reply";
import { pendingReply, type SettleHost, streamAndSettle } from "../../worker/rooms/stream-and-settle";
import { scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

/** A record that counts its attempts, as an answer or a side does. */
const counted = () => ({ ...pendingReply(), attempts: 0, errorKind: null as string | null });

/** A host that writes down what the step asked of it, in order; `retireAt` ends the work at that delta. */
function tracingHost(model: string, record: ReturnType<typeof counted>, retireAt?: number) {
  const trace: string[] = [];
  let current = true;
  let deltas = 0;
  const host: SettleHost<typeof record> = {
    rules: {
      env,
      cancel: new AbortController().signal,
      policy: { maxAttempts: 1, baseMs: 5, maxDelayMs: 5 },
      timeoutMs: 5_000,
    },
    request: { modelId: `openai:${model}`, messages: [{ role: "user", content: "Hi" }] },
    record,
    current: () => current,
    save: () => trace.push(`save:${record.status}`),
    announceStart: (attempt, voided) => trace.push(`start:${attempt}:${voided}`),
    announceDelta: (text) => {
      trace.push(`delta:${text}`);
      if (++deltas === retireAt) current = false;
    },
    keep: (reply: Reply) => void trace.push(`keep:${reply.ok}`),
    log: { run: "stream-and-settle-test", step: "answer", model: `openai:${model}` },
    announceEnd: (reply: Reply) => void trace.push(`end:${reply.ok}`),
  };
  return { host, trace };
}

describe("one stream-and-settle step", () => {
  it("streams a reply into its record, then keeps it and announces its end, in that order", async () => {
    await scriptModel(stub, "settle-streams", [{ text: "One two three four five six." }]);
    const record = counted();
    const { host, trace } = tracingHost("settle-streams", record);
    await streamAndSettle(host);
    expect(record).toMatchObject({
      status: "done",
      text: "One two three four five six.",
      attempts: 1,
      error: null,
      errorKind: null,
      truncated: false,
    });
    expect(record.latencyMs).toBeGreaterThanOrEqual(0);
    const deltas = trace.filter((t) => t.startsWith("delta:")).map((t) => t.slice("delta:".length));
    expect(deltas.join("")).toBe("One two three four five six.");
    expect(trace[0]).toBe("save:streaming");
    expect(trace[1]).toBe("start:1:false");
    expect(trace.slice(-2)).toEqual(["keep:true", "end:true"]);
  });

  it("keeps a failed reply with its error and the failure's kind", async () => {
    await scriptModel(stub, "settle-fails", [{ status: 401 }]);
    const record = counted();
    const { host, trace } = tracingHost("settle-fails", record);
    await streamAndSettle(host);
    expect(record.status).toBe("failed");
    expect(record.error).toEqual(expect.any(String));
    expect(record.errorKind).toBe("auth");
    expect(record.truncated).toBe(false);
    expect(trace).toEqual(["save:streaming", "start:1:false", "keep:false", "end:false"]);
  });

  it("keeps and announces nothing once the work it belongs to is retired", async () => {
    await scriptModel(stub, "settle-retired", [{ text: "First chunk, then more and more text." }]);
    const record = counted();
    const { host, trace } = tracingHost("settle-retired", record, 1);
    await streamAndSettle(host);
    expect(record.status).toBe("streaming");
    expect(trace.filter((t) => t.startsWith("delta:"))).toHaveLength(1);
    expect(trace.some((t) => t.startsWith("keep:") || t.startsWith("end:"))).toBe(false);
  });
});
