/** GET /api/providers, as the Providers page reads it, and the connection test's answer; neither ever carries a key. */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import app from "../../worker/index";
import { client, ok } from "../helpers/client";
import { scriptModelsList } from "../helpers/stub-client";

const stub = inject("stubUrl");

interface Setup {
  id: string;
  status: string;
  reason: string;
  missingLines: string[];
  models: string[];
}

async function setupsWith(vars: Partial<Env>): Promise<Setup[]> {
  const res = await app.request("/api/providers", {}, { ...env, ...vars });
  expect(res.status).toBe(200);
  return (await res.json<{ providers: Setup[] }>()).providers;
}

const byId = (setups: Setup[], id: string) => setups.find((s) => s.id === id)!;

describe("the providers' setup", () => {
  it("lists every provider as available, with why, and the OpenAI-compatible server's configured models", async () => {
    const { providers } = await ok(client.providers.$get());
    expect(providers.map((p) => [p.id, p.status, p.reason, p.missingLines])).toEqual([
      ["openai", "available", "OPENAI_API_KEY is set.", []],
      ["anthropic", "available", "ANTHROPIC_API_KEY is set.", []],
      ["google", "available", "A Google key is set.", []],
      ["openai-compatible", "available", "The server offers 2 models.", []],
      ["demo", "available", "The offline demo needs no key.", []],
    ]);
    expect(byId(providers, "openai-compatible").models).toEqual(["local-llama", "local-qwen"]);
  });

  it("gives each unconfigured provider the .dev.vars lines it lacks, and none to the configured ones", async () => {
    const setups = await setupsWith({ ANTHROPIC_API_KEY: "", OPENAI_COMPATIBLE_BASE_URL: "" });
    expect(byId(setups, "anthropic")).toMatchObject({
      status: "not_configured",
      reason: "No ANTHROPIC_API_KEY is set.",
      missingLines: ["ANTHROPIC_API_KEY="],
    });
    expect(byId(setups, "openai-compatible")).toMatchObject({
      status: "not_configured",
      reason: "No OPENAI_COMPATIBLE_BASE_URL is set.",
      missingLines: ["OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1"],
      models: [],
    });
    expect(setups.flatMap((s) => s.missingLines)).toEqual([
      "ANTHROPIC_API_KEY=",
      "OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1",
    ]);
  });

  it("discovers the OpenAI-compatible server's models when none are configured", async () => {
    await scriptModelsList(stub, "compat-page-discover", [{ models: ["llama3.2:3b", "qwen2.5:7b"] }]);
    const setups = await setupsWith({
      OPENAI_COMPATIBLE_MODELS: "",
      OPENAI_COMPATIBLE_API_KEY: "compat-page-discover",
    });
    expect(byId(setups, "openai-compatible")).toMatchObject({
      status: "available",
      reason: "The server offers 2 models.",
      models: ["llama3.2:3b", "qwen2.5:7b"],
    });
  });

  it("reports a server that refuses the model list as an error that says why, without the key", async () => {
    await scriptModelsList(stub, "compat-page-refused", [{ status: 401 }]);
    const setups = await setupsWith({ OPENAI_COMPATIBLE_MODELS: "", OPENAI_COMPATIBLE_API_KEY: "compat-page-refused" });
    expect(byId(setups, "openai-compatible")).toEqual({
      id: "openai-compatible",
      displayName: "OpenAI-compatible",
      status: "error",
      reason:
        "Can't list the server's models: The OpenAI-compatible server rejected the API key (401). Check OPENAI_COMPATIBLE_API_KEY in .dev.vars, or the Worker secret when deployed.",
      missingLines: [],
      models: [],
    });
  });
});

describe("the connection test", () => {
  it("says how long a configured provider took, and gives no time for one that was not asked", async () => {
    const openai = await ok(client.providers[":provider"].test.$post({ param: { provider: "openai" } }));
    expect(openai).toMatchObject({ ok: true, provider: "openai", message: "OpenAI answered." });
    expect(openai.latencyMs).toBeGreaterThanOrEqual(0);
    const res = await app.request("/api/providers/google/test", { method: "POST" }, { ...env, GOOGLE_API_KEY: "" });
    expect(await res.json()).toEqual({
      ok: false,
      provider: "google",
      message: "Google is not configured: no GOOGLE_API_KEY (or GEMINI_API_KEY).",
      latencyMs: null,
    });
  });
});

describe("keys on the Providers page", () => {
  it("appear in no answer of the setup list or a connection test, even when the server echoes one back", async () => {
    const compatKey = "compat-page-secret-key";
    await scriptModelsList(stub, compatKey, [
      { status: 400, errorMessage: `bad key ${compatKey}` },
      { status: 400, errorMessage: `bad key ${compatKey}` },
    ]);
    const vars = { ...env, OPENAI_COMPATIBLE_MODELS: "", OPENAI_COMPATIBLE_API_KEY: compatKey };
    const bodies = [await (await app.request("/api/providers", {}, vars)).text()];
    for (const id of ["openai", "anthropic", "google", "openai-compatible", "demo"])
      bodies.push(await (await app.request(`/api/providers/${id}/test`, { method: "POST" }, vars)).text());
    const keys = [env.OPENAI_API_KEY!, env.ANTHROPIC_API_KEY!, env.GOOGLE_API_KEY!, compatKey];
    expect(keys.every((k) => k.length > 8)).toBe(true);
    expect(bodies.filter((b) => keys.some((k) => b.includes(k)))).toEqual([]);
    expect(bodies[0]).toContain("bad key [redacted]");
  });
});
