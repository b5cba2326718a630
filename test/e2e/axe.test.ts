/**
 * axe-core (the engine behind Lighthouse's accessibility audit) on every page, light and dark, desktop and a
 * 390 px phone: no WCAG 2 A or AA violation. A finished demo run, a voted demo comparison and a goal battle waiting
 * for its vote are audited too.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

// Evaluated through the DevTools protocol, which the page's Content-Security-Policy (script-src 'self') doesn't cover.
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const PAGES = [
  "/",
  "/history",
  "/chat",
  "/arena",
  "/leaderboard",
  "/evaluations",
  "/evaluations/new",
  "/goal-battles",
  "/prompt-sets",
  "/presets",
  "/providers",
  "/spend",
];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const { found, passed } = (await page.evaluate(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => ({ passed: r.passes.length, found: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })) }))",
  )) as { found: Violation[]; passed: number };
  // The audit really ran: contrast, names, landmarks and the rest were checked and passed.
  expect(passed).toBeGreaterThan(10);
  return found.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The page once its main heading is there and the network is quiet. */
async function settled(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: "networkidle" });
  await page.locator("h1").first().waitFor({ timeout: 10_000 });
}

describeInBrowser("axe on every page", () => {
  const { server, open } = browserSuite({});

  for (const [label, opts] of [
    ["desktop, light", { viewport: { width: 1280, height: 900 }, colorScheme: "light" as const }],
    ["phone, dark", { viewport: { width: 390, height: 844 }, colorScheme: "dark" as const, touch: true }],
  ] as const)
    test(`finds no WCAG A/AA violation, ${label}`, async () => {
      const page = await open(opts);
      const found: Record<string, string[]> = {};
      for (const path of PAGES) {
        await settled(page, `${server.url}${path}`);
        const v = await violations(page);
        if (v.length) found[path] = v;
      }
      expect(found).toEqual({});
    });

  test("finds no violation on a finished demo run, a voted demo comparison and a goal battle", async () => {
    const page = await open();
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string };
    };
    const run = await post("/api/runs", {
      question: "Which vector database for 50M embeddings: pgvector, Qdrant or Milvus?",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
    });
    await settled(page, `${server.url}/runs/${run.id}`);
    await page.getByTestId("run-outcome").waitFor({ timeout: 30_000 });
    expect(await violations(page)).toEqual([]);

    const comparison = await post("/api/comparisons", {
      prompt: "How do I deduplicate rows in Python?",
      models: ["demo:concise", "demo:thorough"],
    });
    await settled(page, `${server.url}/arena/${comparison.id}`);
    await page.locator(".vote-buttons button:enabled").first().waitFor({ timeout: 30_000 });
    expect(await violations(page)).toEqual([]);
    await page.getByRole("button", { name: "Tie" }).click();
    await page.getByTestId("arena-outcome").waitFor({ timeout: 30_000 });
    expect(await violations(page)).toEqual([]);

    const battle = (await post("/api/goal-battles", {
      contestants: ["demo:concise", "demo:thorough"],
      goal: "Help the user choose a vector database",
      user: { mode: "script", script: ["Which vector database should I use?", "For 50M embeddings."] },
      judgeMode: "human",
    })) as unknown as { jobId: string };
    await settled(page, `${server.url}/goal-battles/${battle.jobId}`);
    await page.getByRole("group", { name: "Your verdict" }).waitFor({ timeout: 30_000 });
    expect(await violations(page)).toEqual([]);
  });
});
