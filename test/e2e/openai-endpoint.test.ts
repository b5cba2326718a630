/**
 * The OpenAI-compatible endpoint as a person's tools reach it: `wrangler dev` with the page's static assets, and
 * the official `openai` package in Node, over real HTTP, against the offline demo models.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler-dev";
import { buildWeb, startWranglerDev, type WranglerDev } from "../helpers/e2e-wrangler";

let server: WranglerDev;
let openai: OpenAI;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, "web/dist/index.html"))) await buildWeb();
  server = await startWranglerDev({ QUORUM_LOG: "off", QUORUM_DEMO_DELAY_MS: "0" });
  openai = new OpenAI({ apiKey: "unused-locally", baseURL: `${server.url}/v1`, maxRetries: 0, timeout: 30_000 });
});

afterAll(async () => {
  await server?.close();
});

/** What a browser sends when a person opens a URL in a tab. */
const NAVIGATION = {
  Accept: "text/html,application/xhtml+xml",
  "Sec-Fetch-Mode": "navigate",
  "Sec-Fetch-Dest": "document",
};

describe("the OpenAI-compatible endpoint under wrangler dev", () => {
  it("answers a browser tab opening /v1/models with JSON, not the page", async () => {
    const page = await fetch(`${server.url}/leaderboard`, { headers: NAVIGATION });
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const res = await fetch(`${server.url}/v1/models`, { headers: NAVIGATION });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const { data } = (await res.json()) as { data: { id: string }[] };
    expect(data.map((m) => m.id)).toEqual(expect.arrayContaining(["quorum:top", "demo:concise"]));
    const unknown = await fetch(`${server.url}/v1/nothing-here`, { headers: NAVIGATION });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { type: string } }).error.type).toBe("not_found_error");
  });

  it("gives the openai package a whole completion from a demo model", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: "demo:concise", messages: [{ role: "user", content: "What is a council run?" }] })
      .withResponse();
    expect(response.headers.get("x-quorum-model")).toBe("demo:concise");
    expect(data.model).toBe("demo:concise");
    expect(data.choices[0].message.content?.length).toBeGreaterThan(0);
    expect(data.choices[0].finish_reason).toBe("stop");
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
  });

  it("streams quorum:top to the openai package, naming the model that answered, with a usage chunk", async () => {
    const { data: stream, response } = await openai.chat.completions
      .create({
        model: "quorum:top",
        messages: [{ role: "user", content: "Who answers?" }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    const answered = response.headers.get("x-quorum-model")!;
    expect(answered).toMatch(/^demo:/);
    // A fresh install has no votes: the fallback answers, and says so.
    expect(response.headers.get("x-quorum-fallback")).toMatch(/No model has 20 appearances/);
    let text = "";
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined = null;
    for await (const chunk of stream) {
      expect(chunk.model).toBe(answered);
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(finish).toBe("stop");
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });
});
