import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { scriptModel } from "../helpers/stub-client";
import { api, createRun, finished, openSocket } from "../helpers/runs";
import { castVote, createComparison, openComparisonSocket, settled } from "../helpers/arena";
import { bodyText } from "../helpers/body-text";

const stub = inject("stubUrl");

/** The keys vitest.config.ts configures: every provider call in these tests carries one of them. */
const KEYS = ["sk-test-openai-0000", "sk-ant-test-0000", "test-google-0000"];

function leaks(payload: string): string[] {
  return KEYS.filter((k) => payload.includes(k));
}

describe("keys never leave the server", () => {
  it("appear in no response, export, event or error of a run and a comparison, even when a provider echoes them (nor does the signing secret)", async () => {
    // Providers that put the caller's key in their own error text, as a buggy or hostile one might.
    await scriptModel(stub, "echo-gpt", [
      { status: 401, errorMessage: "Incorrect API key provided: sk-test-openai-0000" },
    ]);
    const echo = { status: 500, errorMessage: "upstream said x-api-key=sk-ant-test-0000 failed" };
    await scriptModel(stub, "echo-claude", [echo, echo, echo, echo]);
    await scriptModel(stub, "echo-gemini", [
      { text: "Fine." },
      { review: "not json test-google-0000" },
      { review: "still not json" },
    ]);
    const id = await createRun({
      question: "Keys?",
      models: [
        { id: "openai:echo-gpt" },
        { id: "anthropic:echo-claude" },
        { id: "google:echo-gemini" },
        { id: "demo:concise" },
      ],
    });
    const socket = await openSocket(id, 0);
    await socket.until((e) => e.type === "run.completed" || e.type === "run.failed", "end of the run");
    socket.close();
    const run = await finished(id);
    expect(run.answers.find((a) => a.modelId === "openai:echo-gpt")!.status).toBe("failed");
    const payloads = [
      JSON.stringify(socket.events),
      JSON.stringify(run),
      await (await api(`/runs/${id}/export?format=json`)).text(),
      await (await api(`/runs/${id}/export?format=md`)).text(),
      await (await api("/runs")).text(),
      await (await api("/models")).text(),
      await (await api("/providers/openai/test", { method: "POST" })).text(),
    ];

    await scriptModel(stub, "echo-side", [{ status: 401, errorMessage: "bad key sk-test-openai-0000" }]);
    const comparison = await createComparison({
      prompt: "Keys?",
      models: ["openai:echo-side", "google:echo-fine"],
      blind: false,
    });
    const failedSide = await settled(comparison.id);
    payloads.push(JSON.stringify(failedSide));
    const fine = await createComparison({ prompt: "Keys?", models: ["openai:echo-ok", "google:echo-ok2"] });
    const cs = await openComparisonSocket(fine.id, 0);
    await settled(fine.id);
    payloads.push(JSON.stringify(await castVote(fine.id, "tie")));
    cs.close();
    payloads.push(
      JSON.stringify(cs.events),
      await (await api("/comparisons")).text(),
      await bodyText(await api("/battles/export?includeFlagged=true")),
    );

    for (const p of payloads) expect(leaks(p)).toEqual([]);
    // Nor the server's own signing secret (ids and vote receipts), made and kept in D1 by now.
    const signing = await env.DB.prepare("SELECT value FROM server_secrets WHERE name = 'signing'").first<string>(
      "value",
    );
    expect(signing).toMatch(/^[0-9a-f]{64}$/);
    for (const p of payloads) expect(p).not.toContain(signing);
    // the provider's own text did come through, with the key taken out
    expect(run.answers.find((a) => a.modelId === "anthropic:echo-claude")!.error).toContain("[redacted]");
    // the failure still says what to do
    expect(run.answers.find((a) => a.modelId === "openai:echo-gpt")!.error).toMatch(/OPENAI_API_KEY/);
  });
});
