/**
 * The OpenAI-compatible endpoint through two clients no one here wrote, over real HTTP to `wrangler dev`: the
 * official `openai` package and the Vercel AI SDK's OpenAI-compatible provider. A proxied model and `quorum:top`
 * answer from the provider stub; `quorum:council` convenes the demo models. Each client parses the same SSE.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, streamText } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler-dev";
import { providerVars } from "../helpers/e2e-suite";
import { buildWeb, startWranglerDev, type WranglerDev } from "../helpers/e2e-wrangler";
import { startProviderStub } from "../helpers/provider-stub";
import { callsFor, scriptModel } from "../helpers/stub-client";

let server: WranglerDev;
let stub: Awaited<ReturnType<typeof startProviderStub>>;
let openai: OpenAI;
let quorum: ReturnType<typeof createOpenAICompatible>;

const COUNCIL = "demo:concise,demo:thorough,demo:skeptic";

beforeAll(async () => {
  // wrangler dev serves the page's assets beside the endpoint, so it wants them built.
  if (!existsSync(path.join(ROOT, "web/dist/index.html"))) await buildWeb();
  stub = await startProviderStub();
  server = await startWranglerDev({
    ...providerVars(stub.url),
    QUORUM_LOG: "off",
    QUORUM_DEMO_DELAY_MS: "0",
    QUORUM_RETRY_BASE_MS: "5",
    // No votes here, so quorum:top answers with its fallback: a stub model, scripted below.
    QUORUM_TOPPER_FALLBACK: "openai:e2e-top",
    QUORUM_COUNCIL_MODELS: COUNCIL,
  });
  const baseURL = `${server.url}/v1`;
  openai = new OpenAI({ apiKey: "unused-locally", baseURL, maxRetries: 0, timeout: 60_000 });
  quorum = createOpenAICompatible({ name: "quorum", baseURL, apiKey: "unused-locally", includeUsage: true });
});

afterAll(async () => {
  await server?.close();
  await stub?.close();
});

const ask = [{ role: "user" as const, content: "Say something." }];

describe("the openai package", () => {
  it("gets a proxied stub model whole and quorum:top streamed, with the answering model named", async () => {
    await scriptModel(stub.url, "e2e-plain", [{ text: "Plainly proxied.", tokensIn: 7, tokensOut: 3 }]);
    const whole = await openai.chat.completions.create({ model: "openai:e2e-plain", messages: ask });
    expect(whole.model).toBe("openai:e2e-plain");
    expect(whole.choices[0].message.content).toBe("Plainly proxied.");
    expect(whole.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });

    await scriptModel(stub.url, "e2e-top", [{ text: "The fallback leader, streamed.", tokensIn: 9, tokensOut: 6 }]);
    const { data: stream, response } = await openai.chat.completions
      .create({ model: "quorum:top", messages: ask, stream: true, stream_options: { include_usage: true } })
      .withResponse();
    expect(response.headers.get("x-quorum-model")).toBe("openai:e2e-top");
    let text = "";
    let usage: OpenAI.CompletionUsage | null | undefined = null;
    for await (const chunk of stream) {
      expect(chunk.model).toBe("openai:e2e-top");
      text += chunk.choices[0]?.delta.content ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe("The fallback leader, streamed.");
    expect(usage).toEqual({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 });
  });
});

interface RunRead {
  run: { status: string; models: { id: string }[] };
  answers: { id: string; modelId: string; text: string }[];
  aggregation: { finalRanking: { answerId: string }[] };
  totals: { tokensIn: number; tokensOut: number };
}

/** The run a council answer links, read as any client would, and the answer its ranking put first. */
async function linkedRun(runId: string | null | undefined) {
  expect(runId).toBeTruthy();
  const run = (await (await fetch(`${server.url}/api/runs/${runId}`)).json()) as RunRead;
  expect(run.run.status).toBe("done");
  expect(run.run.models.map((m) => m.id).join(",")).toBe(COUNCIL);
  return { run, winner: run.answers.find((a) => a.id === run.aggregation.finalRanking[0].answerId)! };
}

describe("the openai package and quorum:council", () => {
  it("gets the council's winning answer, with the run linked", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: "quorum:council", messages: ask })
      .withResponse();
    const { winner } = await linkedRun(response.headers.get("x-quorum-run"));
    expect(data.choices[0].message.content).toBe(winner.text);
    expect(data.model).toBe(winner.modelId);
  });
});

describe("the Vercel AI SDK's OpenAI-compatible provider", () => {
  it("generates a proxied stub model's answer and quorum:top's, reading the model and usage", async () => {
    await scriptModel(stub.url, "e2e-plain", [{ text: "Generated through the AI SDK.", tokensIn: 11, tokensOut: 5 }]);
    const plain = await generateText({ model: quorum("openai:e2e-plain"), messages: ask, maxRetries: 0 });
    expect(plain.text).toBe("Generated through the AI SDK.");
    expect(plain.finishReason).toBe("stop");
    expect(plain.usage.inputTokens).toBe(11);
    expect(plain.usage.outputTokens).toBe(5);
    expect(plain.response.modelId).toBe("openai:e2e-plain");
    const [call] = (await callsFor(stub.url, "e2e-plain")).slice(-1);
    expect(call.body.messages).toEqual([{ role: "user", content: "Say something." }]);

    await scriptModel(stub.url, "e2e-top", [{ text: "The leader, generated." }]);
    const top = await generateText({ model: quorum("quorum:top"), messages: ask, maxRetries: 0 });
    expect(top.text).toBe("The leader, generated.");
    expect(top.response.modelId).toBe("openai:e2e-top");
    expect(top.response.headers?.["x-quorum-fallback"]).toMatch(/QUORUM_TOPPER_FALLBACK answered/);
  });

  it("streams a proxied stub model and quorum:top, chunk by chunk, with the usage chunk", async () => {
    for (const [model, name, answer] of [
      ["openai:e2e-plain", "e2e-plain", "Streamed through the AI SDK, piece by piece."],
      ["quorum:top", "e2e-top", "The leader, streamed to the AI SDK."],
    ] as const) {
      await scriptModel(stub.url, name, [{ text: answer, tokensIn: 13, tokensOut: 8 }]);
      const result = streamText({ model: quorum(model), messages: ask, maxRetries: 0 });
      const pieces: string[] = [];
      for await (const piece of result.textStream) pieces.push(piece);
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.join("")).toBe(answer);
      expect(await result.finishReason).toBe("stop");
      const usage = await result.usage;
      expect([usage.inputTokens, usage.outputTokens]).toEqual([13, 8]);
      expect((await result.response).modelId).toBe(`openai:${name}`);
    }
  });

  it("reads quorum:council's stream, keep-alive comments and all, and gets the winner's answer", async () => {
    const result = streamText({ model: quorum("quorum:council"), messages: ask, maxRetries: 0 });
    let text = "";
    for await (const piece of result.textStream) text += piece;
    const response = await result.response;
    const { run, winner } = await linkedRun(response.headers?.["x-quorum-run"]);
    expect(text).toBe(winner.text);
    expect(response.modelId).toBe(winner.modelId);
    const usage = await result.usage;
    expect([usage.inputTokens, usage.outputTokens]).toEqual([run.totals.tokensIn, run.totals.tokensOut]);
  });
});
