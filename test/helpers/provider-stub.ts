/**
 * A local stand-in for OpenAI, Anthropic, Gemini and an OpenAI-compatible server, speaking their real wire
 * protocols (streaming included) so the official SDKs run unmodified in tests. Tests script it per model name:
 * see stub/types.ts for the step fields and stub-client.ts for the helpers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropic } from "./stub/anthropic";
import { google } from "./stub/google";
import { readJson, sendJson } from "./stub/http";
import { openai } from "./stub/openai";
import { respond } from "./stub/respond";
import { StubState } from "./stub/state";
import type { Step } from "./stub/types";
import { asObject, type Request } from "./stub/vendor";

const VENDORS = [anthropic, google, openai];

export async function startProviderStub(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const state = new StubState();
  const server = createServer((req, res) => {
    handle(state, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `stub failure: ${String(err)}` } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging calls would keep close() waiting forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(state: StubState, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://stub");
  const method = req.method ?? "GET";
  const body = method === "GET" ? null : await readJson(req);
  if (url.pathname.startsWith("/__stub/")) return control(state, method, url, body, res);

  const request: Request = { method, url, headers: req.headers, body, credential: credentialOf(req) };
  for (const vendor of VENDORS) {
    const call = vendor.parse(request);
    if (call) return respond(state, vendor, call, request, res);
  }
  sendJson(res, 404, { error: { message: `the stub does not serve ${method} ${url.pathname}` } });
}

function control(state: StubState, method: string, url: URL, body: unknown, res: ServerResponse) {
  const b = asObject(body);
  const route = `${method} ${url.pathname}`;
  if (route === "POST /__stub/script") {
    state.script(String(b.model), (Array.isArray(b.steps) ? b.steps : []) as Step[]);
    return sendJson(res, 200, { ok: true });
  }
  if (route === "POST /__stub/rule") {
    state.rule(
      String(b.model),
      String(b.pattern),
      asObject(b.step) as Step,
      typeof b.times === "number" ? b.times : undefined,
    );
    return sendJson(res, 200, { ok: true });
  }
  if (route === "POST /__stub/release") return sendJson(res, 200, { released: state.release(String(b.key)) });
  if (route === "GET /__stub/calls") return sendJson(res, 200, state.callsFor(url.searchParams.get("model") ?? ""));
  if (route === "GET /__stub/peak")
    return sendJson(res, 200, { peak: state.peak(url.searchParams.get("prefix") ?? "") });
  if (route === "GET /__stub/held")
    return sendJson(res, 200, { count: state.heldCount(url.searchParams.get("key") ?? "") });
  sendJson(res, 404, { error: { message: `unknown stub control route ${route}` } });
}

function credentialOf(req: IncomingMessage): string {
  const header = req.headers["x-api-key"] ?? req.headers["x-goog-api-key"] ?? req.headers.authorization ?? "";
  return String(header).replace(/^Bearer\s+/i, "");
}
