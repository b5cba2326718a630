import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { api } from "../helpers/runs";

interface DemoView {
  rows: { modelId: string; elo: number | null; mu: number | null; bt: number | null; battles: number }[];
  totalBattles: number;
  demo: { asked: "auto" | "include" | "exclude"; excludedModels: number };
  style: null | { status: "computing" } | { status: "ready"; battles: number; withoutFeatures: number };
}

/** Every provider variable blank: the demo is all there is, as on a fresh clone. */
const NO_PROVIDERS = {
  OPENAI_API_KEY: "",
  ANTHROPIC_API_KEY: "",
  GOOGLE_API_KEY: "",
  GEMINI_API_KEY: "",
  OPENAI_COMPATIBLE_BASE_URL: "",
};

async function board(query: string, vars: Record<string, string> = {}): Promise<DemoView> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`http://localhost/api/leaderboard?${query}`), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return res.json();
}

async function importLog(importId: string, category: string, battles: [string, string, string][]) {
  const body = battles
    .map(([a, b, winner], i) => JSON.stringify({ model_a: a, model_b: b, winner, tstamp: 1_700_000_000 + i, category }))
    .join("\n");
  const res = await api(`/battles/import?importId=${importId}`, { method: "POST", body });
  expect(res.status).toBe(200);
}

/** Two real models' battles, and the demo models' battles around them (one against a real model). */
const REAL: [string, string, string][] = [
  ["openai:mix-gpt", "anthropic:mix-claude", "model_a"],
  ["anthropic:mix-claude", "openai:mix-gpt", "model_a"],
  ["openai:mix-gpt", "anthropic:mix-claude", "model_a"],
];
const MIXED: [string, string, string][] = [
  ["demo:concise", "demo:skeptic", "model_a"],
  ["demo:concise", "openai:mix-gpt", "model_a"],
  ...REAL,
  ["demo:skeptic", "anthropic:mix-claude", "model_b"],
];

describe("the demo models on the leaderboard (demo=auto|include|exclude)", () => {
  it("leave a view that mixes them with real models once a real provider is configured, with every figure as if they were never there", async () => {
    await importLog("demo-mixed", "demo-mix", MIXED);
    await importLog("demo-real-only", "demo-real", REAL);
    const mixed = await board("source=import&category=demo-mix");
    const realOnly = await board("source=import&category=demo-real");
    expect(mixed.demo).toEqual({ asked: "auto", excludedModels: 2 });
    expect(mixed.rows.map((r) => r.modelId).sort()).toEqual(["anthropic:mix-claude", "openai:mix-gpt"]);
    expect(mixed.totalBattles).toBe(3);
    // Bradley–Terry, Elo and TrueSkill the same as on the real battles alone: the battles against demo models
    // left out of every figure, not only hidden rows.
    const figures = (v: DemoView) =>
      v.rows
        .map((r) => [r.modelId, r.battles, r.bt, r.elo, r.mu])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(figures(mixed)).toEqual(figures(realOnly));
    expect(realOnly.demo).toEqual({ asked: "auto", excludedModels: 0 });
  });

  it("stay when asked for with demo=include, and leave any view with demo=exclude", async () => {
    await importLog("demo-mixed-2", "demo-mix-2", MIXED);
    const included = await board("source=import&category=demo-mix-2&demo=include");
    expect(included.demo).toEqual({ asked: "include", excludedModels: 0 });
    expect(included.rows.map((r) => r.modelId).sort()).toEqual([
      "anthropic:mix-claude",
      "demo:concise",
      "demo:skeptic",
      "openai:mix-gpt",
    ]);
    expect(included.totalBattles).toBe(MIXED.length);
    const excluded = await board("source=import&category=demo-mix-2&demo=exclude");
    expect(excluded.rows.map((r) => r.modelId).sort()).toEqual(["anthropic:mix-claude", "openai:mix-gpt"]);
  });

  it("stay in a view of demo models alone, and in every view while no real provider is configured", async () => {
    await importLog("demo-alone", "demo-alone", MIXED.slice(0, 1));
    const alone = await board("source=import&category=demo-alone");
    expect(alone.demo.excludedModels).toBe(0);
    expect(alone.rows.map((r) => r.modelId).sort()).toEqual(["demo:concise", "demo:skeptic"]);

    await importLog("demo-mixed-3", "demo-mix-3", MIXED);
    const fresh = await board("source=import&category=demo-mix-3", NO_PROVIDERS);
    expect(fresh.demo).toEqual({ asked: "auto", excludedModels: 0 });
    expect(fresh.rows).toHaveLength(4);
    expect(fresh.totalBattles).toBe(MIXED.length);
    // The same query with a real provider configured: a cached answer for one setup is not served for the other.
    expect((await board("source=import&category=demo-mix-3")).rows).toHaveLength(2);
  });

  it("leave the style-controlled fit too", async () => {
    await importLog("demo-mixed-4", "demo-mix-4", MIXED);
    let view = await board("source=import&category=demo-mix-4&style=true");
    for (let tries = 0; view.style?.status !== "ready" && tries < 400; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      view = await board("source=import&category=demo-mix-4&style=true");
    }
    // No battle here carries style metadata: the fit counts the view's battles without it, the real ones only.
    expect(view.style).toMatchObject({ status: "ready", battles: 0, withoutFeatures: REAL.length });
  });
});
