import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import app from "../../worker/index";
import { client, ok } from "../helpers/client";
import { createRun, finished } from "../helpers/runs";
import { callsFor, scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

describe("health and models", () => {
  it("reports a reachable database, valid settings and the version", async () => {
    const res = await client.health.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, version: env.QUORUM_VERSION, db: "ok", config: { ok: true } });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("lists the configured providers, discovering the OpenAI-compatible server's models", async () => {
    const { providers } = await ok(client.models.$get());
    expect(providers.every((p) => p.available)).toBe(true);
    expect(providers.find((p) => p.id === "openai-compatible")!.models.map((m) => m.id)).toEqual([
      "openai-compatible:local-llama",
      "openai-compatible:local-qwen",
    ]);
  });
});

describe("provider configuration at the edge", () => {
  const withoutKeys = { ...env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" };

  it("refuses a run on an unconfigured provider with a 400 that names the missing variable", async () => {
    const res = await app.request(
      "/api/runs",
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: "q", models: [{ id: "demo:concise" }, { id: "anthropic:claude-haiku-4-5" }] }),
      },
      withoutKeys,
    );
    expect(res.status).toBe(400);
    const { error } = await res.json<{ error: { code: string; message: string } }>();
    expect(error.code).toBe("provider_not_configured");
    expect(error.message).toContain("ANTHROPIC_API_KEY");
    expect(error.message).toContain("anthropic:claude-haiku-4-5");
  });

  it("shows an unconfigured provider as unavailable, with the reason, instead of hiding it", async () => {
    const res = await app.request("/api/models", {}, withoutKeys);
    const { providers } = await res.json<{ providers: { id: string; available: boolean; reason: string | null }[] }>();
    expect(providers.find((p) => p.id === "openai")).toMatchObject({ available: false, reason: "no OPENAI_API_KEY" });
    expect(providers.find((p) => p.id === "google")).toMatchObject({ available: true, reason: null });
  });

  it("tests a provider with the smallest call and reports what went wrong without the key", async () => {
    const openai = await ok(client.providers[":provider"].test.$post({ param: { provider: "openai" } }));
    expect(openai.ok).toBe(true);
    const demo = await ok(client.providers[":provider"].test.$post({ param: { provider: "demo" } }));
    expect(demo.ok).toBe(true);
    const missing = await (await app.request("/api/providers/anthropic/test", { method: "POST" }, withoutKeys)).json<{
      ok: boolean;
      message: string;
    }>();
    expect(missing).toMatchObject({ ok: false });
    expect(missing.message).toContain("ANTHROPIC_API_KEY");
    expect((await client.providers[":provider"].test.$post({ param: { provider: "acme" } })).status).toBe(404);
  });
});

describe("parameters a model rejects", () => {
  it("drops an unsupported temperature, asks again once, and records the drop", async () => {
    await scriptModel(stub, "picky-gpt", [
      { status: 400, errorParam: "temperature" },
      { text: "Fine without temperature." },
    ]);
    const id = await createRun({
      question: "Picky?",
      models: [{ id: "openai:picky-gpt", params: { temperature: 0.3 } }, { id: "demo:concise" }],
    });
    const detail = await finished(id);
    const picky = detail.answers.find((a) => a.modelId === "openai:picky-gpt")!;
    expect(picky.status).toBe("done");
    expect(picky.text).toBe("Fine without temperature.");
    expect(picky.droppedParams).toEqual(["temperature"]);
    const answers = (await callsFor(stub, "picky-gpt")).filter((c) => c.kind === "answer");
    expect(answers).toHaveLength(2);
    expect(answers[0].body.temperature).toBe(0.3);
    expect(answers[1].body.temperature).toBeUndefined();
  });

  it("passes per-model settings over the run's", async () => {
    const id = await createRun({
      question: "Settings?",
      models: [
        { id: "openai:settings-gpt", params: { maxTokens: 77, systemPrompt: "Answer in French." } },
        { id: "demo:concise" },
      ],
      settings: { systemPrompt: "Be brief.", maxTokens: 500 },
    });
    await finished(id);
    const [call] = (await callsFor(stub, "settings-gpt")).filter((c) => c.kind === "answer");
    expect(call.body.max_completion_tokens).toBe(77);
    expect(JSON.stringify(call.body.messages)).toContain("Answer in French.");
    expect(JSON.stringify(call.body.messages)).not.toContain("Be brief.");
  });
});
