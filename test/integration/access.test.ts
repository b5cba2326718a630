import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { isLoopback, localRefusal } from "../../worker/api/access";
import { tokenProtocol } from "../../worker/shared/socket-protocol";
import { api, createRun } from "../helpers/runs";
import { errorOf } from "../helpers/arena";

const TOKEN = "s3cret-token_0123";

/** The Worker as deployed with APP_TOKEN set, reached at `url`. */
async function withToken(url: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, init), { ...env, APP_TOKEN: TOKEN }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The Worker without APP_TOKEN, told (as `npm start` tells it) that it listens on `listen` ("" for deployed). */
async function asListening(listen: string, url: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, init), { ...env, QUORUM_LISTEN: listen, APP_TOKEN: "" }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("access control", () => {
  it("asks for APP_TOKEN on every API route when it is set, and lets the right one in", async () => {
    const none = await withToken("https://quorum.example.com/api/models");
    expect(none.status).toBe(401);
    expect((await errorOf(none)).message).toMatch(/Authorization: Bearer/);
    const wrong = await withToken("https://quorum.example.com/api/runs", { headers: { Authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect((await errorOf(wrong)).message).toMatch(/not this Quorum's APP_TOKEN/);
    const right = await withToken("https://quorum.example.com/api/runs", {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(right.status).toBe(200);
    const post = await withToken("https://quorum.example.com/api/comparisons", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(post.status).toBe(401);
  });

  it("refuses a WebSocket without the token and takes it as a subprotocol, answering with quorum", async () => {
    const id = await createRun({ question: "Socket?", models: [{ id: "demo:concise" }] });
    const url = `https://quorum.example.com/api/runs/${id}/ws`;
    const refused = await withToken(url, { headers: { Upgrade: "websocket" } });
    expect(refused.status).toBe(401);
    const offered = await withToken(url, {
      headers: { Upgrade: "websocket", "Sec-WebSocket-Protocol": `quorum, ${tokenProtocol("wrong")}` },
    });
    expect(offered.status).toBe(401);
    const ok = await withToken(url, {
      headers: { Upgrade: "websocket", "Sec-WebSocket-Protocol": `quorum, ${tokenProtocol(TOKEN)}` },
    });
    expect(ok.status).toBe(101);
    expect(ok.headers.get("Sec-WebSocket-Protocol")).toBe("quorum");
    ok.webSocket!.accept();
    ok.webSocket!.close(1000, "done");
  });

  it("without APP_TOKEN, a Quorum deployed or started without a known listener refuses every API call, saying how to set one", async () => {
    const res = await SELF.fetch("https://quorum.example.com/api/health");
    expect(res.status).toBe(403);
    const deployed = await asListening("", "http://localhost/api/health", {
      headers: { "CF-Connecting-IP": "127.0.0.1" },
    });
    expect(deployed.status).toBe(403);
    expect((await errorOf(deployed)).message).toMatch(/wrangler secret put APP_TOKEN/);
  });

  it("without APP_TOKEN, a loopback listener serves loopback names whatever CF-Connecting-IP says, and no other name", async () => {
    expect((await SELF.fetch("http://localhost/api/health")).status).toBe(200);
    // Only this machine can reach a loopback listener, so a client-sent address says nothing either way.
    expect(
      (await SELF.fetch("http://127.0.0.1/api/health", { headers: { "CF-Connecting-IP": "203.0.113.9" } })).status,
    ).toBe(200);
    // A page that reached us under its own name (DNS rebinding) is not this Quorum's page.
    const rebound = await SELF.fetch("http://evil.example/api/health");
    expect(rebound.status).toBe(403);
    expect((await errorOf(rebound)).message).toMatch(/open it at http:\/\/localhost/);
  });

  it("without APP_TOKEN, a listener other machines can reach refuses every call, forged local headers included", async () => {
    for (const listen of ["0.0.0.0", "::", "192.0.2.10"]) {
      const forged = await asListening(listen, "http://localhost:8787/api/health", {
        headers: { Host: "localhost", "CF-Connecting-IP": "127.0.0.1" },
      });
      expect(forged.status).toBe(403);
      const body = await errorOf(forged);
      expect(body.code).toBe("app_token_required");
      expect(body.message).toContain(`listens on ${listen}`);
      expect(body.message).toMatch(/APP_TOKEN in \.dev\.vars/);
      const socket = await asListening(listen, "http://127.0.0.1:8787/api/comparisons/x/ws", {
        headers: { Upgrade: "websocket", "CF-Connecting-IP": "::1" },
      });
      expect(socket.status).toBe(403);
    }
    // With a token it serves the token's holder, wherever it listens.
    const ctx = createExecutionContext();
    const held = await worker.fetch(
      new Request("http://192.0.2.10:8787/api/health", { headers: { Authorization: `Bearer ${TOKEN}` } }),
      { ...env, QUORUM_LISTEN: "0.0.0.0", APP_TOKEN: TOKEN },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(held.status).toBe(200);
  });

  it("knows loopback names and which listeners need a token", () => {
    for (const host of ["localhost", "app.localhost", "127.0.0.1", "127.8.9.10", "::1", "[::1]", "LOCALHOST"])
      expect(isLoopback(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "localhost.evil.example", "128.0.0.1", "quorum.workers.dev"])
      expect(isLoopback(host)).toBe(false);
    expect(localRefusal(new URL("http://localhost:8787/api"), "127.0.0.1")).toBeNull();
    expect(localRefusal(new URL("http://[::1]:8787/api"), "::1")).toBeNull();
    expect(localRefusal(new URL("http://localhost:8787/api"), "0.0.0.0")).toMatch(/listens on 0\.0\.0\.0/);
    expect(localRefusal(new URL("http://192.168.1.20:8787/api"), "127.0.0.1")).toMatch(/reached as 192\.168\.1\.20/);
    expect(localRefusal(new URL("https://quorum.workers.dev/api"), undefined)).toMatch(/wrangler secret put APP_TOKEN/);
  });
});

describe("cross-site requests", () => {
  it("refuses a POST and a socket upgrade from another site's page, and allows the app's own", async () => {
    const foreign = await api("/runs", {
      method: "POST",
      json: { question: "x", models: [{ id: "demo:concise" }] },
      headers: { Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect((await errorOf(foreign)).code).toBe("cross_origin");
    const own = await api("/runs", {
      method: "POST",
      json: { question: "x", models: [{ id: "demo:concise" }] },
      headers: { Origin: "http://127.0.0.1" },
    });
    expect(own.status).toBe(201);
    const id = ((await own.json()) as { id: string }).id;
    const ws = await SELF.fetch(`http://127.0.0.1/api/runs/${id}/ws`, {
      headers: { Upgrade: "websocket", Origin: "https://evil.example" },
    });
    expect(ws.status).toBe(403);
    // a read from another site is harmless to serve (the browser won't show it to that page without CORS)
    expect((await api("/models", { headers: { Origin: "https://evil.example" } })).status).toBe(200);
  });
});

describe("request bodies", () => {
  it("are refused over 1 MiB with 413, and as anything but JSON with 415", async () => {
    const big = await api("/runs", {
      method: "POST",
      json: { question: "x".repeat(1_100_000), models: [{ id: "demo:concise" }] },
    });
    expect(big.status).toBe(413);
    expect((await errorOf(big)).message).toMatch(/larger than 1024 KB/);
    const form = await api("/runs", {
      method: "POST",
      body: "question=hi",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    expect((await errorOf(form)).message).toMatch(/Content-Type: application\/json/);
    // posts without a body need no content type
    const id = await createRun({ question: "Cancel me", models: [{ id: "demo:concise" }] });
    expect([200, 409]).toContain((await api(`/runs/${id}/cancel`, { method: "POST" })).status);
  });
});

describe("rate limits per client", () => {
  it("answer 429 with Retry-After past QUORUM_RATE_RUNS a minute, per client", async () => {
    const post = async (client: string) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request("http://127.0.0.1/api/runs", {
          method: "POST",
          headers: { "content-type": "application/json", "X-Client-Id": client },
          body: JSON.stringify({
            question: "Limit me",
            models: [{ id: "demo:concise" }],
            settings: { autoEvaluate: false },
          }),
        }),
        { ...env, QUORUM_RATE_RUNS: "3" },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    const first = [await post("limited"), await post("limited"), await post("limited")];
    expect(first.map((r) => r.status)).toEqual([201, 201, 201]);
    const fourth = await post("limited");
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(fourth)).message).toMatch(/at most 3 a minute \(QUORUM_RATE_RUNS\)/);
    // another client has its own allowance
    expect((await post("someone-else")).status).toBe(201);
  });
});
