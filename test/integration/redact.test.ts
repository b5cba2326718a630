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
const PEM =
  "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----";
const GITHUB = "ghp_Zq9Xw8Cv7Bn6Ml5Kj4Hg3Fd2Sa1Po0Iu9Yt8Re7W";
const SECRETS = [OPENAI_KEY, AWS_KEY, EMAIL, BEARER, PEM, GITHUB, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"];

async function post(path: string, json: unknown, redact: boolean): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://127.0.0.1/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(json),
    }),
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
    if (Date.now() > deadline)
      throw new Error(`turn 2 not answered within ${timeoutMs} ms: ${detail.comparison.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const bodiesOf = async (model: string) => (await callsFor(stub, model)).map((c) => JSON.stringify(c.body)).join("\n");
const containsAny = (text: string) =>
  SECRETS.filter((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)));

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
    const stored = await env.DB.prepare("SELECT question, settings FROM runs WHERE id = ?")
      .bind(created.id)
      .first<{ question: string; settings: string }>();
    expect(containsAny(stored!.question + stored!.settings)).toEqual([]);
    expect(JSON.parse(stored!.settings).redactions).toEqual(counts);
    const answers = await env.DB.prepare("SELECT params FROM answers WHERE run_id = ?")
      .bind(created.id)
      .all<{ params: string }>();
    expect(containsAny(answers.results.map((a) => a.params).join())).toEqual([]);
  });

  it("masks a comparison's prompt, system prompt and follow-up messages, adding up the marks", async () => {
    const res = await post(
      "/comparisons",
      {
        prompt: `Fix my CI: GITHUB_TOKEN=${GITHUB} fails, write to ${EMAIL}`,
        models: ["openai:redact-left", "anthropic:redact-right"],
        params: { systemPrompt: `Use ${OPENAI_KEY}` },
      },
      true,
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; redactions: Record<string, number> };
    expect(created.redactions).toEqual({ "api key": 2, email: 1 });
    await settled(created.id);

    const follow = await post(
      `/comparisons/${created.id}/messages`,
      { content: `Still failing with Bearer ${BEARER}` },
      true,
    );
    expect(follow.status).toBe(202);
    expect(((await follow.json()) as { redactions: Record<string, number> }).redactions).toEqual({ "bearer token": 1 });
    const detail = await secondTurnAnswered(created.id);
    expect(detail.comparison.params.redactions).toEqual({ "api key": 2, email: 1, "bearer token": 1 });
    expect(detail.turns.map((t) => t.prompt)).toEqual([
      "Fix my CI: GITHUB_TOKEN=[redacted: api key] fails, write to [redacted: email]",
      "Still failing with Bearer [redacted: bearer token]",
    ]);

    for (const model of ["redact-left", "redact-right"]) {
      const sent = await bodiesOf(model);
      expect(sent).toContain("Still failing with Bearer [redacted: bearer token]");
      expect(containsAny(sent)).toEqual([]);
    }
    const stored = await env.DB.prepare("SELECT prompt, params FROM comparisons WHERE id = ?")
      .bind(created.id)
      .first<{ prompt: string; params: string }>();
    const messages = await env.DB.prepare("SELECT content FROM messages WHERE comparison_id = ? AND role = 'user'")
      .bind(created.id)
      .all<{ content: string }>();
    expect(containsAny(stored!.prompt + stored!.params + messages.results.map((m) => m.content).join())).toEqual([]);
    expect(JSON.parse(stored!.params).redactions).toEqual({ "api key": 2, email: 1, "bearer token": 1 });
  });

  it("masks the secrets an adversarial test pasted, whole, split or hidden, in every text of a comparison and a run", async () => {
    // Each line is one secret as a person would paste it; `parts` are what must not reach a provider or D1.
    const stripe = "sk_live_51H8xQzLkP3vR7tY2mN9bC4dF6gJ1hK0";
    const npm = "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    const pasted: { line: string; parts: string[] }[] = [
      { line: `stripe ${stripe}`, parts: [stripe.slice(8)] },
      {
        line: "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        parts: ["dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJzdWIiOiIxMjM0NTY3ODkwIn0"],
      },
      { line: "DATABASE_URL=postgres://app_user:Zk82xQpL@db.internal:5432/prod", parts: ["Zk82xQpL"] },
      { line: "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh", parts: ["AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"] },
      {
        line: "oauth ya29.a0AfH6SMBx3kPq9ZrT7uVwXy1234567890abcdEFGH",
        parts: ["a0AfH6SMBx3kPq9ZrT7uVwXy1234567890abcdEFGH"],
      },
      { line: `npm ${npm}`, parts: [npm.slice(4)] },
      {
        line: 'curl -H "Authorization: Basic YWRtaW46czNjcmV0UGE1NQ==" https://admin:s3cretPa55@example.com/',
        parts: ["YWRtaW46czNjcmV0UGE1NQ", "s3cretPa55"],
      },
      {
        line: "webhook https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX",
        parts: ["aBcDeFgHiJkLmNoPqRsTuVwX"],
      },
      { line: "and my password is Tr0ub4dor&3, the pw is hunter22", parts: ["Tr0ub4dor&3", "hunter22"] },
      { line: `split ${stripe.slice(0, 22)} ${stripe.slice(22)}`, parts: [stripe.slice(8, 22), stripe.slice(22)] },
      { line: `hidden ${npm.slice(0, 14)}\u200B${npm.slice(14)}`, parts: [npm.slice(4, 14), npm.slice(14)] },
    ];
    const parts = pasted.flatMap((p) => p.parts);
    const leaks = (text: string) => parts.filter((part) => text.includes(part));
    const prompt = ["Why does my deploy fail? It has these lines:", ...pasted.map((p) => p.line)].join("\n");

    const res = await post(
      "/comparisons",
      {
        prompt,
        category: `billing ${stripe}`,
        models: ["openai:leak-left", "anthropic:leak-right"],
        params: { systemPrompt: pasted[9]!.line },
      },
      true,
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; redactions: Record<string, number> };
    expect(created.redactions).toEqual({ "api key": 8, token: 2, password: 5 });
    await settled(created.id);
    const follow = await post(`/comparisons/${created.id}/messages`, { content: pasted[10]!.line }, true);
    expect(follow.status).toBe(202);
    const detail = await secondTurnAnswered(created.id);
    expect(detail.comparison.category).toBe("billing [redacted: api key]");
    expect(detail.turns[0]!.prompt).toContain(
      "DATABASE_URL=postgres://app_user:[redacted: password]@db.internal:5432/prod",
    );
    expect(detail.turns[1]!.prompt).toBe("hidden [redacted: api key]");
    for (const model of ["leak-left", "leak-right"]) {
      const sent = await bodiesOf(model);
      expect(sent).toContain("Why does my deploy fail?");
      expect(leaks(sent)).toEqual([]);
    }
    const stored = await env.DB.prepare("SELECT prompt, category, params FROM comparisons WHERE id = ?")
      .bind(created.id)
      .first<{ prompt: string; category: string; params: string }>();
    const messages = await env.DB.prepare("SELECT content FROM messages WHERE comparison_id = ?")
      .bind(created.id)
      .all<{ content: string }>();
    expect(
      leaks(stored!.prompt + stored!.category + stored!.params + messages.results.map((m) => m.content).join()),
    ).toEqual([]);

    const run = await post(
      "/runs",
      {
        question: prompt,
        models: [{ id: "openai:leak-run", params: { systemPrompt: pasted[10]!.line } }],
        settings: { autoEvaluate: false, systemPrompt: pasted[8]!.line },
      },
      true,
    );
    expect(run.status).toBe(201);
    const ran = (await run.json()) as { id: string; redactions: Record<string, number> };
    expect(ran.redactions).toEqual({ "api key": 7, token: 2, password: 7 });
    await finished(ran.id);
    expect(leaks(await bodiesOf("leak-run"))).toEqual([]);
    const row = await env.DB.prepare("SELECT question, settings FROM runs WHERE id = ?")
      .bind(ran.id)
      .first<{ question: string; settings: string }>();
    expect(leaks(row!.question + row!.settings)).toEqual([]);
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
