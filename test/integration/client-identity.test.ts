import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { onError } from "../../worker/api/errors";
import { clientIdOf, rateLimit } from "../../worker/api/rate-limit";
import { readyComparison, type VoteBody } from "../helpers/arena";

/** The limiter in front of an empty answer, answering with the client it saw. */
const limited = new Hono<{ Bindings: Env }>()
  .post("/runs", async (c) => {
    const client = await clientIdOf(c);
    await rateLimit(c, "runs", client);
    return c.json({ client });
  })
  .onError(onError);

/** Settings as `npm start` runs (loopback listener) or as deployed (no listener), X-Client-Id not trusted. */
const LOCAL = { ...env, QUORUM_LISTEN: "127.0.0.1", QUORUM_TRUST_CLIENT_ID: "", QUORUM_RATE_RUNS: "3" };
const DEPLOYED = { ...env, QUORUM_LISTEN: "", QUORUM_TRUST_CLIENT_ID: "", QUORUM_RATE_RUNS: "3" };

async function statuses(
  settings: Env,
  headersFor: (i: number) => Record<string, string>,
  count: number,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++)
    out.push((await limited.request("/runs", { method: "POST", headers: headersFor(i) }, settings)).status);
  return out;
}

describe("who a client is", () => {
  it("locally every caller is one client, so rotating X-Client-Id doesn't beat a limit", async () => {
    const seen = await limited.request(
      "/runs",
      { method: "POST", headers: { "X-Client-Id": "rotating-0", "CF-Connecting-IP": "203.0.113.5" } },
      LOCAL,
    );
    expect(await seen.json()).toEqual({ client: "local" });
    expect(
      await statuses(LOCAL, (i) => ({ "X-Client-Id": `rotating-${i + 1}`, "CF-Connecting-IP": `203.0.113.${i}` }), 4),
    ).toEqual([200, 200, 429, 429]);
  });

  it("deployed, a client is the address Cloudflare reports, hashed; X-Client-Id can't widen it", async () => {
    const one = (i: number) => ({ "X-Client-Id": `rotating-${i}`, "CF-Connecting-IP": "198.51.100.7" });
    const first = (await (await limited.request("/runs", { method: "POST", headers: one(0) }, DEPLOYED)).json()) as {
      client: string;
    };
    expect(first.client).toMatch(/^ip:[0-9a-f]{24}$/);
    expect(first.client).not.toContain("198.51.100.7");
    expect(await statuses(DEPLOYED, (i) => one(i + 1), 3)).toEqual([200, 200, 429]);
    // another address has limits of its own
    expect(await statuses(DEPLOYED, () => ({ "CF-Connecting-IP": "198.51.100.8" }), 1)).toEqual([200]);
  });

  it("with QUORUM_TRUST_CLIENT_ID (tests and benches), X-Client-Id names a client within its address", async () => {
    const trusted = { ...LOCAL, QUORUM_TRUST_CLIENT_ID: "true" };
    const res = await limited.request("/runs", { method: "POST", headers: { "X-Client-Id": "alice" } }, trusted);
    expect(await res.json()).toEqual({ client: "local/client:alice" });
  });

  it("a second vote on one comparison from the same machine is flagged duplicate whatever X-Client-Id it sends", async () => {
    const detail = await readyComparison(["openai:ident-a", "anthropic:ident-b"], { category: "identity" });
    const cast = async (clientId: string): Promise<VoteBody> => {
      const ctx = createExecutionContext();
      const request = new Request(`http://localhost/api/comparisons/${detail.comparison.id}/votes`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Client-Id": clientId },
        body: JSON.stringify({ choice: "left" }),
      });
      const res = await worker.fetch(request, LOCAL, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(201);
      return (await res.json()) as VoteBody;
    };
    expect((await cast("mallory-1")).flags).not.toContain("duplicate");
    expect((await cast("mallory-2")).flags).toContain("duplicate");
    const stored = await env.DB.prepare("SELECT DISTINCT client_id FROM model_votes WHERE comparison_id = ?")
      .bind(detail.comparison.id)
      .all<{ client_id: string }>();
    expect(stored.results.map((r) => r.client_id)).toEqual(["local"]);
  });
});
