import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../worker/index";
import type { ComparisonDetail } from "../../worker/shared/arena";
import { getComparison, settled } from "../helpers/arena";
import { finished, getRun } from "../helpers/runs";
import { callsFor, scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

// Planted secrets: made-up, but shaped like the real thing.
const OPENAI_KEY = "sk-proj-Qz8Wx7Vc6Bn5Ml4Kj3Hg2Fd1Sa0Po9Iu8Yt7";
const AWS_KEY = "AKIAQZ7WX6VC5BN4ML3K";
const EMAIL = "ops.lead@example-corp.com";
const BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjo0Mn0.9sdf8Gk2Lq";
const PEM = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----";
const GITHUB = "ghp_Zq9Xw8Cv7Bn6Ml5Kj4Hg3Fd2Sa1Po0Iu9Yt8Re7W";
const SECRETS = [OPENAI_KEY, AWS_KEY, EMAIL, BEARER, PEM, GITHUB, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"];

async function post(path: string, json: unknown, redact: boolean): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://127.0.0.1/api${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(json) }),
    redact ? { ...env, QUORUM_REDACT: "true" } : env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

async function secondTurnAnswered(id: string, timeoutMs = 10_000): Promise<ComparisonDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const detail = await getComparison(id);
    if (detail.turns.length === 2 && detail.comparison.status === "ready") return detail;
    if (Date.now() > deadline) throw new Error(`turn 2 not answered within ${timeoutMs} ms: ${detail.comparison.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const bodiesOf = async (model: string) => (await callsFor(stub, model)).map((c) => JSON.stringify(c.body)).join("\n");
const containsAny = (text: string) => SECRETS.filter((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)));

const runBody = (model: string) => ({
  question: `Why does this fail? curl -H "Authorization: Bearer ${BEARER}" with key ${OPENAI_KEY}; mail ${EMAIL}. Also: what is 2 + 2?`,
  models: [{ id: `openai:${model}`, params: { systemPrompt: `Deploy with aws_access_key_id=${AWS_KEY}.` } }],
  settings: { autoEvaluate: false, systemPrompt: `Key file:\n${PEM}\nBe brief.` },
});

describe("redact mode, QUORUM_REDACT", () => {
  it("masks a run's question and system prompts before they are stored or sent, and shows what it masked", async () => {
    const res = await post("/runs", runBody("redact-gpt"), true);
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; redactions: Record<string, number> };
    const counts = { "private key": 1, "bearer token": 1, "api key": 2, email: 1 };
    expect(created.redactions).toEqual(counts);
    const run = await finished(created.id);
    expect(run.run.settings.redactions).toEqual(counts);
    expect(run.run.question).toBe(
      'Why does this fail? curl -H "Authorization: Bearer [redacted: bearer token]" with key [redacted: api key]; mail [redacted: email]. Also: what is 2 + 2?',
    );

    const sent = await bodiesOf("redact-gpt");
    expect(sent).toContain("[redacted: api key]");
    expect(sent).toContain("what is 2 + 2?");
    expect(containsAny(sent)).toEqual([]);
    const stored = await env.DB.prepare("SELECT question, settings FROM runs WHERE id = ?").bind(created.id).first<{ question: string; settings: string }>();
    expect(containsAny(stored!.question + stored!.settings)).toEqual([]);
    expect(JSON.parse(stored!.settings).redactions).toEqual(counts);
    const answers = await env.DB.prepare("SELECT params FROM answers WHERE run_id = ?").bind(created.id).all<{ params: string }>();
    expect(containsAny(answers.results.map((a) => a.params).join())).toEqual([]);
  });

  it("masks a comparison's prompt, system prompt and follow-up messages, adding up the marks", async () => {
    const res = await post(
      "/comparisons",
      { prompt: `Fix my CI: GITHUB_TOKEN=${GITHUB} fails, write to ${EMAIL}`, models: ["openai:redact-left", "anthropic:redact-right"], params: { systemPrompt: `Use ${OPENAI_KEY}` } },
      true,
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; redactions: Record<string, number> };
    expect(created.redactions).toEqual({ "api key": 2, email: 1 });
    await settled(created.id);

    const follow = await post(`/comparisons/${created.id}/messages`, { content: `Still failing with Bearer ${BEARER}` }, true);
    expect(follow.status).toBe(202);
    expect(((await follow.json()) as { redactions: Record<string, number> }).redactions).toEqual({ "bearer token": 1 });
    const detail = await secondTurnAnswered(created.id);
    expect(detail.comparison.params.redactions).toEqual({ "api key": 2, email: 1, "bearer token": 1 });
    expect(detail.turns.map((t) => t.prompt)).toEqual(["Fix my CI: GITHUB_TOKEN=[redacted: api key] fails, write to [redacted: email]", "Still failing with Bearer [redacted: bearer token]"]);

    for (const model of ["redact-left", "redact-right"]) {
      const sent = await bodiesOf(model);
      expect(sent).toContain("Still failing with Bearer [redacted: bearer token]");
      expect(containsAny(sent)).toEqual([]);
    }
    const stored = await env.DB.prepare("SELECT prompt, params FROM comparisons WHERE id = ?").bind(created.id).first<{ prompt: string; params: string }>();
    const messages = await env.DB.prepare("SELECT content FROM messages WHERE comparison_id = ? AND role = 'user'").bind(created.id).all<{ content: string }>();
    expect(containsAny(stored!.prompt + stored!.params + messages.results.map((m) => m.content).join())).toEqual([]);
    expect(JSON.parse(stored!.params).redactions).toEqual({ "api key": 2, email: 1, "bearer token": 1 });
  });

  it("changes nothing when it is off", async () => {
    await scriptModel(stub, "plain-gpt", [{}]);
    const res = await post("/runs", runBody("plain-gpt"), false);
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; redactions?: unknown };
    expect(created.redactions).toBeUndefined();
    await finished(created.id);
    const run = await getRun(created.id);
    expect(run.run.settings.redactions).toBeUndefined();
    expect(run.run.question).toContain(OPENAI_KEY);
    const sent = await bodiesOf("plain-gpt");
    expect(sent).toContain(OPENAI_KEY);
    expect(sent).toContain(AWS_KEY);
  });
});
