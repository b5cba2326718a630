import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import OpenAI from "openai";
import { describe, expect, inject, it } from "vitest";
import worker from "../../worker/index";
import { castVote, createComparison, leaderboard, settled } from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { getRun } from "../helpers/runs";
import { BASE } from "../helpers/sockets";
import { callsFor, poll, scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

/** The official SDK, pointed at the Worker: every request goes through the real entry and all its middleware. */
const openai = new OpenAI({
  apiKey: "anything",
  baseURL: `${BASE}/v1`,
  maxRetries: 0,
  fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init),
});

/** A request to /v1 by hand, for the malformed ones the SDK would never send. */
function v1(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init;
  return SELF.fetch(`${BASE}/v1${path}`, {
    ...rest,
    method: rest.method ?? (json === undefined ? "GET" : "POST"),
    headers: { ...(json === undefined ? {} : { "content-type": "application/json" }), ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
}

/** The Worker with settings of its own (its rooms keep the test's). */
async function withSettings(path: string, settings: Record<string, string>, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${BASE}/v1${path}`, init), { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const ask = (model: string, content = "Say hello.") => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ model, messages: [{ role: "user", content }] }),
});

interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

async function refusal(res: Response, status: number): Promise<OpenAiErrorBody["error"]> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = await res.json<OpenAiErrorBody>();
  expect(Object.keys(body.error).sort()).toEqual(["code", "message", "param", "type"]);
  return body.error;
}

/** The `data:` payloads of a server-sent event stream, in order. */
async function events(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      return block.slice("data: ".length);
    });
}

describe("GET /v1/models", () => {
  it("lists quorum:top and every available model in OpenAI's list shape", async () => {
    const page = await openai.models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids.slice(0, 2)).toEqual(["quorum:top", "quorum:council"]);
    expect(ids).toContain("demo:concise");
    expect(ids).toContain("openai:gpt-4.1");
    expect(page.data.find((m) => m.id === "quorum:top")).toEqual({
      id: "quorum:top",
      object: "model",
      created: 0,
      owned_by: "quorum",
    });
    // Asked for HTML, it is still JSON (test/e2e/openai-endpoint.test.ts opens it as a browser tab would, assets served).
    const res = await v1("/models", { headers: { Accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("POST /v1/chat/completions through the official openai SDK", () => {
  it("answers a whole completion from a proxied model, with its usage, and sends the system prompt and parameters on", async () => {
    await scriptModel(stub, "v1-plain", [{ text: "Hello from the stub.", tokensIn: 12, tokensOut: 5 }]);
    const { data, response } = await openai.chat.completions
      .create({
        model: "openai:v1-plain",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "developer", content: [{ type: "text", text: "Answer in English." }] },
          {
            role: "user",
            content: [
              { type: "text", text: "Say " },
              { type: "text", text: "hello." },
            ],
          },
        ],
        temperature: 0.3,
        max_completion_tokens: 64,
      })
      .withResponse();
    expect(data.object).toBe("chat.completion");
    expect(data.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(data.model).toBe("openai:v1-plain");
    expect(response.headers.get("x-quorum-model")).toBe("openai:v1-plain");
    expect(data.choices).toEqual([
      {
        index: 0,
        message: { role: "assistant", content: "Hello from the stub.", refusal: null },
        finish_reason: "stop",
        logprobs: null,
      },
    ]);
    expect(data.usage).toEqual({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    const [call] = await callsFor(stub, "v1-plain");
    expect(call.body.temperature).toBe(0.3);
    expect(call.body.max_completion_tokens).toBe(64);
    expect(call.body.messages).toEqual([
      { role: "system", content: "Be brief.\n\nAnswer in English." },
      { role: "user", content: "Say hello." },
    ]);
  });

  it("streams chunks the SDK parses, ending with the finish reason and, when asked, a usage chunk", async () => {
    const text = "Streaming works one piece at a time, as the provider sends it.";
    await scriptModel(stub, "v1-stream", [{ text, tokensIn: 20, tokensOut: 11 }]);
    const { data: stream, response } = await openai.chat.completions
      .create({
        model: "openai:v1-stream",
        messages: [{ role: "user", content: "Stream please." }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-quorum-model")).toBe("openai:v1-stream");
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.object).toBe("chat.completion.chunk");
      expect(c.model).toBe("openai:v1-stream");
      expect(c.id).toBe(chunks[0].id);
    }
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    const withChoices = chunks.filter((c) => c.choices.length > 0);
    expect(withChoices.map((c) => c.choices[0].delta.content ?? "").join("")).toBe(text);
    expect(withChoices.at(-1)!.choices[0].finish_reason).toBe("stop");
    expect(withChoices.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({ prompt_tokens: 20, completion_tokens: 11, total_tokens: 31 });
  });

  it("says length when the model hit max_tokens, and leaves the usage chunk out unless asked", async () => {
    await scriptModel(stub, "v1-cut", [{ text: "Cut short here", truncated: true }]);
    const res = await v1("/chat/completions", {
      json: { model: "openai:v1-cut", messages: [{ role: "user", content: "Go on." }], stream: true, max_tokens: 3 },
    });
    const data = await events(res);
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as { choices: { finish_reason: string | null }[] });
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe("length");
    expect(chunks.every((c) => c.choices.length === 1 && !("usage" in c))).toBe(true);
    const [call] = await callsFor(stub, "v1-cut");
    expect(call.body.max_completion_tokens).toBe(3);
  });

  it("turns a provider's failure before the first token into an HTTP error the SDK raises, with no key in it", async () => {
    await scriptModel(stub, "v1-missing", [{ status: 404 }]);
    const err = await openai.chat.completions
      .create({ model: "openai:v1-missing", messages: [{ role: "user", content: "Hi" }], stream: true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    const apiError = err as InstanceType<typeof OpenAI.NotFoundError>;
    expect(apiError.code).toBe("model_not_found");
    expect(apiError.message).not.toContain("sk-test-openai-0000");
  });

  it("ends a stream that fails midway with an error event the SDK raises", async () => {
    await scriptModel(stub, "v1-midway", [
      { text: "Part of an answer that breaks.", errorAfterChunks: 2, status: 400 },
    ]);
    const stream = await openai.chat.completions.create({
      model: "openai:v1-midway",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
    });
    const received: string[] = [];
    const failed = await (async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? "");
    })().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as Error).message).toMatch(/failed midway/);
    expect(received.join("").length).toBeGreaterThan(0);
  });
});

describe("presets", () => {
  it("lists a preset's newest version and answers it with its model, system prompt and parameters", async () => {
    const made = await ok(
      client.presets.$post({
        json: {
          name: "V1 Terse",
          modelId: "openai:v1-preset",
          systemPrompt: "Be terse.",
          temperature: 0.2,
          maxTokens: 99,
        },
      }),
    );
    expect((await openai.models.list()).data.map((m) => m.id)).toContain(made.id);
    await scriptModel(stub, "v1-preset", [{ text: "Terse." }, { text: "Warmer." }]);
    const { data, response } = await openai.chat.completions
      .create({
        model: made.id,
        messages: [
          { role: "system", content: "In English." },
          { role: "user", content: "Hi" },
        ],
      })
      .withResponse();
    expect(data.model).toBe("openai:v1-preset");
    expect(response.headers.get("x-quorum-preset")).toBe(made.id);
    expect(data.choices[0].message.content).toBe("Terse.");
    // The call's own temperature wins over the preset's; what it leaves out, the preset sets.
    await openai.chat.completions.create({
      model: made.id,
      messages: [{ role: "user", content: "Hi" }],
      temperature: 0.9,
    });
    const [first, second] = await callsFor(stub, "v1-preset");
    expect(first.body.messages[0]).toEqual({ role: "system", content: "Be terse.\n\nIn English." });
    expect(first.body.temperature).toBe(0.2);
    expect(first.body.max_completion_tokens).toBe(99);
    expect(second.body.temperature).toBe(0.9);
    // Used, so an edit now makes a new version.
    expect((await ok(client.presets[":slug"].$get({ param: { slug: made.slug } }))).usedAt).not.toBeNull();
  });
});

describe("refusals, in OpenAI's error shape", () => {
  it("refuses an unknown model, a preset and a quorum model it doesn't have, naming the model field", async () => {
    for (const model of ["nope:x", "gpt-4", "preset:no-such-preset@1", "quorum:bottom"]) {
      const error = await refusal(await SELF.fetch(`${BASE}/v1/chat/completions`, ask(model)), 400);
      expect(error.type).toBe("invalid_request_error");
      expect(error.param).toBe("model");
    }
    const bare = await refusal(await SELF.fetch(`${BASE}/v1/chat/completions`, ask("gpt-4")), 400);
    expect(bare.message).toMatch(/"gpt-4" is not a model id: use provider:model-name/);
  });

  it("refuses n other than 1, tools, non-text parts, tool messages and a conversation without a user", async () => {
    const base = { model: "openai:v1-never", messages: [{ role: "user", content: "Hi" }] };
    const cases: [unknown, string, RegExp][] = [
      [{ ...base, n: 2 }, "n", /only n=1/],
      [{ ...base, tools: [{ type: "function", function: { name: "f" } }] }, "tools", /tools aren't supported yet/],
      [
        { ...base, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] },
        "messages.0.content.0",
        /only text content parts/,
      ],
      [{ ...base, messages: [{ role: "tool", content: "42", tool_call_id: "t" }] }, "messages.0.role", /tool messages/],
      [{ ...base, messages: [{ role: "system", content: "Only this." }] }, "messages", /at least one user/],
      [{ ...base, response_format: { type: "json_schema" } }, "response_format", /response_format/],
    ];
    for (const [json, param, message] of cases) {
      const error = await refusal(await v1("/chat/completions", { json }), 400);
      expect(error).toMatchObject({ type: "invalid_request_error", param });
      expect(error.message).toMatch(message);
    }
    expect(await callsFor(stub, "v1-never")).toEqual([]);
  });

  it("refuses a body that isn't JSON, a wrong method, an unknown path and a body past the cap", async () => {
    const bad = await refusal(
      await v1("/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
      400,
    );
    expect(bad.type).toBe("invalid_request_error");
    const wrong = await v1("/chat/completions");
    expect(wrong.headers.get("Allow")).toBe("POST");
    expect((await refusal(wrong, 405)).code).toBe("method_not_allowed");
    expect((await refusal(await v1("/models", { method: "DELETE" }), 405)).message).toMatch(/takes GET, HEAD/);
    expect((await refusal(await v1("/completions", { json: {} }), 404)).type).toBe("not_found_error");
    const huge = { model: "openai:v1-never", messages: [{ role: "user", content: "x".repeat(1024 * 1024 + 1) }] };
    expect((await refusal(await v1("/chat/completions", { json: huge }), 413)).code).toBe("too_large");
  });

  it("asks for APP_TOKEN as a Bearer token when one is set, and takes the right one", async () => {
    const token = { APP_TOKEN: "v1-s3cret" };
    const none = await refusal(await withSettings("/models", token), 401);
    expect(none.type).toBe("authentication_error");
    expect(none.message).toMatch(/Authorization: Bearer/);
    await refusal(await withSettings("/models", token, { headers: { Authorization: "Bearer wrong" } }), 401);
    const right = await withSettings("/models", token, { headers: { Authorization: "Bearer v1-s3cret" } });
    expect(right.status).toBe(200);
    await scriptModel(stub, "v1-token", [{ text: "Behind the token." }]);
    const call = ask("openai:v1-token");
    const answered = await withSettings("/chat/completions", token, {
      ...call,
      headers: { ...call.headers, Authorization: "Bearer v1-s3cret" },
    });
    expect(answered.status).toBe(200);
    expect((await answered.json<{ choices: { message: { content: string } }[] }>()).choices[0].message.content).toBe(
      "Behind the token.",
    );
    // Another site's page can't post to it, token or not.
    const crossSite = await v1("/chat/completions", {
      json: { model: "openai:v1-never", messages: [{ role: "user", content: "Hi" }] },
      headers: { Origin: "https://evil.example" },
    });
    expect((await refusal(crossSite, 403)).type).toBe("permission_error");
  });

  it("without APP_TOKEN, serves only this machine: refuses a listener others can reach and a name that isn't loopback", async () => {
    const exposed = await withSettings("/models", { APP_TOKEN: "", QUORUM_LISTEN: "0.0.0.0" });
    expect(await refusal(exposed, 403)).toMatchObject({ type: "permission_error", code: "app_token_required" });
    const ctx = createExecutionContext();
    const rebound = await worker.fetch(new Request("http://evil.example/v1/models"), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await refusal(rebound, 403)).message).toMatch(/serves this machine only/);
  });

  it("refuses an unpriced model under a spend cap, and a call past the day's cap", async () => {
    const capped = await refusal(
      await withSettings("/chat/completions", { QUORUM_MAX_DAY_USD: "5" }, ask("openai:v1-unpriced")),
      400,
    );
    expect(capped.code).toBe("unpriced_model");
    const spent = await refusal(
      await withSettings("/chat/completions", { QUORUM_MAX_DAY_USD: "0.000001" }, ask("openai:priced-custom")),
      429,
    );
    expect(spent).toMatchObject({ code: "day_cap", type: "insufficient_quota" });
    expect(await callsFor(stub, "v1-unpriced")).toEqual([]);
  });

  it("holds a client to QUORUM_RATE_COMPLETIONS a minute", async () => {
    const limit = { QUORUM_RATE_COMPLETIONS: "1", QUORUM_TRUST_CLIENT_ID: "true" };
    const init = { ...ask("demo:concise"), headers: { "content-type": "application/json", "X-Client-Id": "v1-rate" } };
    expect((await withSettings("/chat/completions", limit, init)).status).toBe(200);
    const second = await withSettings("/chat/completions", limit, init);
    expect(second.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await refusal(second, 429)).type).toBe("rate_limit_error");
  });
});

describe("spend", () => {
  it("under a spend cap, sets the call's most aside before it starts and settles it when it ends", async () => {
    await scriptModel(stub, "priced-custom", [{ text: "Capped and paid for." }]);
    const res = await withSettings("/chat/completions", { QUORUM_MAX_DAY_USD: "100" }, ask("openai:priced-custom"));
    expect(res.status).toBe(200);
    const { id } = await res.json<{ id: string }>();
    const hold = await poll(
      () =>
        env.DB.prepare("SELECT usd, settled_at AS settledAt FROM spend_holds WHERE item_id = ?")
          .bind(id)
          .first<{ usd: number; settledAt: number | null }>(),
      (h) => h?.settledAt != null,
      5_000,
      "the call's hold to settle",
    );
    // Up to 4096 output tokens (the allowance a capped call is sent with) at $2 per million, and the prompt at $1.
    expect(hold!.usd).toBeGreaterThan((4096 * 2) / 1_000_000);
    const [call] = (await callsFor(stub, "priced-custom")).slice(-1);
    expect(call.body.max_completion_tokens).toBe(4096);
  });

  it("records each call at its price under the spend page's endpoint feature, and settles its hold", async () => {
    const feature = async () =>
      (await ok(client.spend.history.$get({ query: { days: "1" } }))).byFeature.find((f) => f.feature === "endpoint");
    const before = (await feature())?.usd ?? 0;
    await scriptModel(stub, "priced-custom", [{ text: "Paid for.", tokensIn: 1000, tokensOut: 500 }]);
    const res = await SELF.fetch(`${BASE}/v1/chat/completions`, ask("openai:priced-custom"));
    expect(res.status).toBe(200);
    // QUORUM_PRICES prices it at $1 in, $2 out per million tokens.
    const after = await poll(feature, (f) => (f?.usd ?? 0) > before, 5_000, "the call's spend entry");
    expect(after!.usd - before).toBeCloseTo((1000 * 1 + 500 * 2) / 1_000_000, 12);
    await poll(
      () => ok(client.spend.$get()),
      (s) => s.reservedUsd === 0,
      5_000,
      "the call's hold to settle",
    );
  });
});

describe("quorum:top", () => {
  it("falls back while no model has enough appearances, saying so, then follows the leader the leaderboard shows, and the next one", async () => {
    await scriptModel(stub, "pool-gpt", [{ text: "The pool's first model." }]);
    const fallback = await SELF.fetch(`${BASE}/v1/chat/completions`, ask("quorum:top"));
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get("x-quorum-model")).toBe("openai:pool-gpt");
    expect(fallback.headers.get("x-quorum-fallback")).toMatch(/No model has 20 appearances/);
    expect((await fallback.json<{ model: string }>()).model).toBe("openai:pool-gpt");

    await scriptModel(stub, "v1-named-fallback", [{ text: "Configured fallback." }]);
    const named = await withSettings(
      "/chat/completions",
      { QUORUM_TOPPER_FALLBACK: "anthropic:v1-named-fallback" },
      ask("quorum:top"),
    );
    expect(named.headers.get("x-quorum-model")).toBe("anthropic:v1-named-fallback");
    expect(named.headers.get("x-quorum-fallback")).toMatch(/QUORUM_TOPPER_FALLBACK answered/);

    // Four blind comparisons the strong model wins three of, one a tie.
    for (const [k, choice] of (["strong", "strong", "strong", "tie"] as const).entries()) {
      await scriptModel(stub, "v1-strong", [{ text: "STRONG" }]);
      await scriptModel(stub, "v1-weak", [{ text: "weak" }]);
      const { id } = await createComparison({ prompt: `Round ${k}`, models: ["openai:v1-strong", "google:v1-weak"] });
      const detail = await settled(id);
      const strongSide = detail.turns[0].left.text === "STRONG" ? "left" : "right";
      await castVote(id, choice === "tie" ? "tie" : strongSide);
    }
    const board = await leaderboard();
    const leader = board.rows.filter((r) => r.bt !== null && r.appearances >= 3).sort((a, b) => b.bt! - a.bt!)[0];
    expect(leader.modelId).toBe("openai:v1-strong");

    await scriptModel(stub, "v1-strong", [{ text: "The leader answers." }]);
    const topped = await withSettings("/chat/completions", { QUORUM_TOPPER_MIN_APPEARANCES: "3" }, ask("quorum:top"));
    expect(topped.status).toBe(200);
    expect(topped.headers.get("x-quorum-model")).toBe(leader.modelId);
    expect(topped.headers.get("x-quorum-reason")).toMatch(/^#1 on the human leaderboard, -?\d+/);
    expect(topped.headers.get("x-quorum-fallback")).toBeNull();
    const body = await topped.json<{ model: string; choices: { message: { content: string } }[] }>();
    expect(body.model).toBe("openai:v1-strong");
    expect(body.choices[0].message.content).toBe("The leader answers.");

    // Five more comparisons the weak model wins: it takes the lead, and quorum:top follows it.
    for (const k of [4, 5, 6, 7, 8]) {
      await scriptModel(stub, "v1-strong", [{ text: "STRONG" }]);
      await scriptModel(stub, "v1-weak", [{ text: "weak" }]);
      const { id } = await createComparison({ prompt: `Round ${k}`, models: ["openai:v1-strong", "google:v1-weak"] });
      const detail = await settled(id);
      await castVote(id, detail.turns[0].left.text === "weak" ? "left" : "right");
    }
    const after = await leaderboard();
    const newLeader = after.rows.filter((r) => r.bt !== null && r.appearances >= 3).sort((a, b) => b.bt! - a.bt!)[0];
    expect(newLeader.modelId).toBe("google:v1-weak");
    await scriptModel(stub, "v1-weak", [{ text: "The new leader answers." }]);
    const followed = await withSettings("/chat/completions", { QUORUM_TOPPER_MIN_APPEARANCES: "3" }, ask("quorum:top"));
    expect(followed.headers.get("x-quorum-model")).toBe("google:v1-weak");
    expect((await followed.json<{ choices: { message: { content: string } }[] }>()).choices[0].message.content).toBe(
      "The new leader answers.",
    );

    // A category no comparison was in has no leader: the fallback answers, and says which view it read.
    const view = await withSettings(
      "/chat/completions",
      { QUORUM_TOPPER_MIN_APPEARANCES: "3" },
      ask("quorum:top/poetry"),
    );
    expect(view.headers.get("x-quorum-fallback")).toMatch(/poetry view/);
  });
});

/** A council call: OpenAI's SDKs pass fields they don't know (`models`, `synthesis`) through in the body. */
type CouncilCall = OpenAI.ChatCompletionCreateParamsNonStreaming & { models?: string[]; synthesis?: string };
const DEMO_COUNCIL = ["demo:concise", "demo:thorough", "demo:skeptic"];
const council = (content: string, extra: { models?: string[]; synthesis?: string } = {}): CouncilCall => ({
  model: "quorum:council",
  messages: [{ role: "user", content }],
  models: DEMO_COUNCIL,
  ...extra,
});

/** The run a council call names in x-quorum-run, ended, with the answer its ranking put first. */
async function councilRun(response: Response) {
  const id = response.headers.get("x-quorum-run");
  expect(id).toBeTruthy();
  const detail = await getRun(id!);
  const first = detail.aggregation!.finalRanking[0];
  return { detail, winner: detail.answers.find((a) => a.id === first.answerId)! };
}

describe("quorum:council", () => {
  it("answers with the winner of a council run it starts, linked in x-quorum-run and kept in History", async () => {
    const { data, response } = await openai.chat.completions
      .create(council("What makes a council of models useful?"))
      .withResponse();
    const { detail, winner } = await councilRun(response);
    expect(detail.run.status).toBe("done");
    expect(detail.run.question).toBe("What makes a council of models useful?");
    expect(detail.run.models.map((m) => m.id)).toEqual(DEMO_COUNCIL);
    expect(detail.aggregation!.voteBreakdown.reviewers.length).toBe(3);
    expect(data.choices[0].message.content).toBe(winner.text);
    expect(data.choices[0].finish_reason).toBe("stop");
    expect(data.model).toBe(winner.modelId);
    expect(response.headers.get("x-quorum-model")).toBe(winner.modelId);
    expect(response.headers.get("x-quorum-reason")).toMatch(/^#1 of 3 in the council run \(\d+ Borda points/);
    // The usage is the whole run's: three answers and three reviews.
    expect(data.usage).toEqual({
      prompt_tokens: detail.totals.tokensIn,
      completion_tokens: detail.totals.tokensOut,
      total_tokens: detail.totals.tokensIn + detail.totals.tokensOut,
    });
    expect(data.usage!.completion_tokens).toBeGreaterThan(winner.tokensOut!);
    const history = await ok(client.runs.$get({ query: {} }));
    expect(history.items.find((r) => r.id === detail.run.id)?.winner?.modelId).toBe(winner.modelId);
  });

  it("streams keep-alive comments while the council runs, then the winner's answer in chunks both parsers read", async () => {
    const res = await v1("/chat/completions", {
      json: { ...council("Stream the council's answer."), stream: true, stream_options: { include_usage: true } },
    });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const runId = res.headers.get("x-quorum-run")!;
    const blocks = (await res.text()).split("\n\n").filter((b) => b.trim() !== "");
    const comments = blocks.filter((b) => b.startsWith(": "));
    const data = blocks.filter((b) => b.startsWith("data: ")).map((b) => b.slice("data: ".length));
    expect(comments.length + data.length).toBe(blocks.length);
    expect(comments[0]).toBe(`: quorum council run ${runId} started`);
    // Then the run's statuses as the council moves on (how many it passes before the socket opens varies).
    expect(comments.slice(1).length).toBeGreaterThan(0);
    for (const c of comments.slice(1))
      expect(c).toMatch(new RegExp(`^: council run ${runId} (answering|reviewing|done)$`));
    // Every comment comes before the answer: nothing is known until the run ends.
    expect(blocks.findLastIndex((b) => b.startsWith(": "))).toBeLessThan(
      blocks.findIndex((b) => b.startsWith("data: ")),
    );
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as OpenAI.ChatCompletionChunk);
    const { detail, winner } = await councilRun(res);
    expect(chunks.map((c) => c.model)).toEqual(chunks.map(() => winner.modelId));
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe(winner.text);
    expect(chunks.at(-1)!.usage).toEqual({
      prompt_tokens: detail.totals.tokensIn,
      completion_tokens: detail.totals.tokensOut,
      total_tokens: detail.totals.tokensIn + detail.totals.tokensOut,
    });

    // The official SDK reads the same stream, comments and all.
    const { data: stream, response } = await openai.chat.completions
      .create({ ...council("Stream it to the SDK."), stream: true })
      .withResponse();
    let text = "";
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe((await councilRun(response)).winner.text);
    expect(finish).toBe("stop");
  });

  it("answers with the synthesis when synthesis names the model that writes it", async () => {
    const { data, response } = await openai.chat.completions
      .create(council("Give me one answer from all of you.", { synthesis: "demo:thorough" }))
      .withResponse();
    const { detail } = await councilRun(response);
    expect(detail.synthesis?.status).toBe("done");
    expect(detail.run.settings.synthesis).toEqual({ modelId: "demo:thorough" });
    expect(data.choices[0].message.content).toBe(detail.synthesis!.text);
    expect(data.model).toBe("demo:thorough");
    expect(response.headers.get("x-quorum-model")).toBe("demo:thorough");
    expect(response.headers.get("x-quorum-reason")).toBe("wrote the synthesis of the council's 3 ranked answers");
  });

  it("puts a longer conversation to the council as its transcript, with the system messages as its system prompt", async () => {
    const { response } = await openai.chat.completions
      .create({
        ...council("unused"),
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Name a prime." },
          { role: "assistant", content: "7." },
          { role: "user", content: "Another one?" },
        ],
        temperature: 0.4,
        max_tokens: 300,
      })
      .withResponse();
    const { detail } = await councilRun(response);
    expect(detail.run.question).toBe(
      "The conversation so far:\n\nUser: Name a prime.\n\nAssistant: 7.\n\nAnswer the user's latest message:\n\nAnother one?",
    );
    expect(detail.run.settings).toMatchObject({ systemPrompt: "Be brief.", temperature: 0.4, maxTokens: 300 });
  });

  it("convenes QUORUM_COUNCIL_MODELS when the call names no models, and asks for them when none are set", async () => {
    const call = { ...council("Who sits on the council?"), models: undefined };
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call) };
    const res = await withSettings("/chat/completions", { QUORUM_COUNCIL_MODELS: "demo:skeptic,demo:concise" }, init);
    expect(res.status).toBe(200);
    const { detail } = await councilRun(res);
    expect(detail.run.models.map((m) => m.id)).toEqual(["demo:skeptic", "demo:concise"]);
    // Real providers are configured here, so the setup page would pick nothing: the call must say who sits.
    const unset = await refusal(await v1("/chat/completions", { json: call }), 400);
    expect(unset).toMatchObject({ param: "models", code: "council_models_required" });
    expect(unset.message).toMatch(/set QUORUM_COUNCIL_MODELS/);
  });

  it("refuses bad models and synthesis in OpenAI's error shape, naming the field, before any run starts", async () => {
    const before = (await ok(client.runs.$get({ query: { limit: "100" } }))).items.length;
    const cases: [unknown, string, RegExp][] = [
      [council("Hi", { models: ["demo:concise", "gpt-4"] }), "models.1", /model id looks like provider:model-name/],
      [council("Hi", { models: [] }), "models", /at least one model/],
      [council("Hi", { models: ["demo:concise", "demo:concise"] }), "models", /only once/],
      [council("Hi", { models: ["nope:x"] }), "models", /unknown provider "nope"/],
      [council("Hi", { models: ["preset:no-such@1"] }), "models", /no preset "preset:no-such@1"/],
      [council("Hi", { synthesis: "nope:x" }), "synthesis", /unknown provider "nope"/],
      [{ ...council("Hi"), model: "demo:concise" }, "models", /goes only with model "quorum:council"/],
      [
        { model: "demo:concise", messages: [{ role: "user", content: "Hi" }], synthesis: "demo:concise" },
        "synthesis",
        /only with/,
      ],
    ];
    for (const [json, param, message] of cases) {
      const error = await refusal(await v1("/chat/completions", { json }), 400);
      expect(error).toMatchObject({ type: "invalid_request_error", param });
      expect(error.message).toMatch(message);
    }
    expect((await ok(client.runs.$get({ query: { limit: "100" } }))).items.length).toBe(before);
  });

  it("turns a council run that fails, and one past the spend cap, into OpenAI's errors with the run linked", async () => {
    await scriptModel(stub, "v1-council-down", [{ status: 400 }]);
    const failed = await refusal(
      await v1("/chat/completions", { json: council("Anyone?", { models: ["openai:v1-council-down"] }) }),
      502,
    );
    expect(failed).toMatchObject({ type: "upstream_error", code: "council_failed" });
    const runId = /GET \/api\/runs\/(\S+),/.exec(failed.message)![1];
    expect((await getRun(runId)).run.status).toBe("failed");

    await scriptModel(stub, "v1-council-down", [{ status: 400 }]);
    const stream = await openai.chat.completions.create({
      ...council("Anyone, streamed?", { models: ["openai:v1-council-down"] }),
      stream: true,
    });
    const midway = await (async () => {
      for await (const _chunk of stream);
    })().catch((e: unknown) => e);
    expect(midway).toBeInstanceOf(OpenAI.APIError);
    expect((midway as Error).message).toMatch(/The council run failed/);

    const capped = await refusal(
      await withSettings(
        "/chat/completions",
        { QUORUM_MAX_DAY_USD: "0.000001" },
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(council("Too dear", { models: ["openai:priced-custom"] })),
        },
      ),
      429,
    );
    expect(capped).toMatchObject({ code: "day_cap", type: "insufficient_quota" });
  });
});
