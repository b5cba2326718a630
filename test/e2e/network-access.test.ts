/**
 * "No token, this machine only", tried from another machine: a test host in a network namespace of the test's
 * own sends requests that pretend to be local (Host: localhost, CF-Connecting-IP: 127.0.0.1) to a `wrangler dev`
 * listening on every interface without APP_TOKEN, as `HOST=0.0.0.0 npm start` runs it.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, launchWranglerDev, ROOT } from "../../scripts/lib/wrangler-dev";
import { buildWeb } from "../helpers/e2e-wrangler";
import { createTestHost, type TestHost } from "../helpers/netns";

const made = await createTestHost();
const host: TestHost | null = "unavailable" in made ? null : made;
if ("unavailable" in made) console.warn(`[e2e] skipping the network-namespace access test: ${made.unavailable}`);

/** What a client on the test host gets: status and body, from Node's own HTTP client (it sends any Host). */
const CLIENT = `
const http = require("node:http");
const [url, headers] = [process.argv[1], JSON.parse(process.argv[2])];
const req = http.request(url, { headers, timeout: 10000 }, (res) => {
  let body = "";
  res.on("data", (d) => (body += d));
  res.on("end", () => console.log(JSON.stringify({ status: res.statusCode, body })));
});
req.on("timeout", () => req.destroy(new Error("timed out")));
req.on("error", (err) => console.log(JSON.stringify({ error: err.message })));
req.end();
`;

describe.skipIf(!host)("from another machine, with no APP_TOKEN", () => {
  let server: DevServer;
  let persistTo: string;
  let port: string;

  const fromTestHost = async (pathname: string, headers: Record<string, string> = {}) => {
    const { stdout } = await host!.exec(process.execPath, [
      "-e",
      CLIENT,
      `http://${host!.serverAddress}:${port}${pathname}`,
      JSON.stringify(headers),
    ]);
    return JSON.parse(stdout.trim()) as { status?: number; body?: string; error?: string };
  };

  beforeAll(async () => {
    if (!existsSync(path.join(ROOT, "web/dist/index.html"))) await buildWeb();
    persistTo = await mkdtemp(path.join(tmpdir(), "quorum-netns-"));
    // Every interface, and the page itself as the sign it is up: without a token every API route is refused.
    server = await launchWranglerDev({ persistTo, ip: "0.0.0.0", readyPath: "/", timeoutMs: 120_000 });
    port = new URL(server.url).port;
  });

  afterAll(async () => {
    await server?.stop();
    await host?.remove();
    if (persistTo) await rm(persistTo, { recursive: true, force: true });
  });

  it("reaches the server, and gets 403 for the API even with forged local headers", async () => {
    const page = await fromTestHost("/");
    expect(page.status).toBe(200);
    const forged = await fromTestHost("/api/health", {
      Host: "localhost",
      "CF-Connecting-IP": "127.0.0.1",
      "X-Forwarded-For": "127.0.0.1",
    });
    expect(forged.status).toBe(403);
    const error = (JSON.parse(forged.body!) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("app_token_required");
    expect(error.message).toContain("listens on 0.0.0.0");
    const write = await fromTestHost("/api/models", { Host: "127.0.0.1:8787", "CF-Connecting-IP": "::1" });
    expect(write.status).toBe(403);
    const socket = await fromTestHost("/api/comparisons/anything/ws", {
      Host: "localhost",
      "CF-Connecting-IP": "127.0.0.1",
      Upgrade: "websocket",
      Connection: "Upgrade",
      "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    });
    expect(socket.status).toBe(403);
  });

  it("refuses this machine too while it listens on every interface", async () => {
    const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /Set APP_TOKEN in \.dev\.vars/,
    );
  });
});
