/**
 * The spend page in a real browser: after a priced council run (and one answer with no price), /spend shows
 * the same figures GET /api/spend/history gives, per feature, provider, model and day; the unpriced call is
 * said, never shown as $0; the header's spend line leads there; and on a 390 px phone the page fits, every
 * control has a name and the navigation wraps no more than elsewhere.
 */
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import type { RunDetail } from "../../worker/shared/run";
import { formatSpend } from "../../web/src/lib/format";
import { screenshot } from "../helpers/e2e-browser";
import { fitsWidth, readableText, unlabelledControls } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";
import { poll, scriptModel } from "../helpers/stub-client";

interface Figure {
  usd: number;
  unknownCostCalls: number;
  calls: number;
}
interface History {
  byDay: (Figure & { day: string })[];
  byProvider: (Figure & { provider: string; name: string })[];
  byModel: (Figure & { modelId: string })[];
  byFeature: (Figure & { feature: string })[];
  total: Figure;
}

const tableRows = (page: Page, id: string) =>
  page
    .getByTestId(id)
    .locator("tbody tr")
    .evaluateAll((rows: { cells: ArrayLike<{ textContent: string | null }> }[]) =>
      rows.map((r) => Array.from(r.cells, (c) => (c.textContent ?? "").trim())),
    );
const expected = (name: string, f: Figure) => [
  name,
  formatSpend(f),
  String(f.calls),
  f.unknownCostCalls ? String(f.unknownCostCalls) : "—",
];

describeInBrowser("the spend page", () => {
  const { server, stub, open } = browserSuite({ stub: true });

  const api = async <T>(route: string, body?: unknown): Promise<T> => {
    const res = await fetch(
      `${server.url}/api${route}`,
      body === undefined
        ? undefined
        : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    );
    expect(res.ok, `/api${route} answered ${res.status}`).toBe(true);
    return (await res.json()) as T;
  };

  test("after a priced run, /spend's tables read the API's figures per feature, provider, model and day, and say the unpriced call", async () => {
    await scriptModel(stub.url, "gpt-4o-mini", [{ tokensIn: 1500, tokensOut: 700 }]);
    await scriptModel(stub.url, "claude-haiku-4-5", [{ tokensIn: 800, tokensOut: 300 }]);
    await scriptModel(stub.url, "spend-e2e-unpriced", [{ tokensIn: 400, tokensOut: 200 }]);
    const { id } = await api<{ id: string }>("/runs", {
      question: "What did this cost?",
      models: [{ id: "openai:gpt-4o-mini" }, { id: "anthropic:claude-haiku-4-5" }, { id: "openai:spend-e2e-unpriced" }],
      settings: { autoEvaluate: false },
    });
    const run = await poll(
      () => api<RunDetail>(`/runs/${id}`),
      (r) => ["done", "partial", "failed", "cancelled"].includes(r.run.status),
      30_000,
      "the run to end (partial without an evaluation)",
    );
    expect(run.answers.map((a) => a.status)).toEqual(["done", "done", "done"]);
    const history = await poll(
      () => api<History & { today: { reservedUsd: number } }>("/spend/history"),
      (h) => h.today.reservedUsd === 0,
      10_000,
      "the run's hold to settle",
    );
    const runCost = run.answers.reduce((sum, a) => sum + (a.costUsd ?? 0), 0);
    expect(runCost).toBeGreaterThan(0);
    expect(history.total.usd).toBeCloseTo(runCost, 12);

    // From the header's spend line to the page.
    const page = await open();
    await page.goto(server.url);
    await page.getByTestId("spend-line").click({ timeout: 10_000 });
    await page.getByRole("heading", { name: "Spend", level: 1 }).waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe("/spend");
    await page.getByTestId("spend-by-model").waitFor({ timeout: 10_000 });

    expect(await tableRows(page, "spend-by-model")).toEqual(history.byModel.map((m) => expected(m.modelId, m)));
    expect(await tableRows(page, "spend-by-provider")).toEqual(history.byProvider.map((p) => expected(p.name, p)));
    expect(await tableRows(page, "spend-by-feature")).toEqual([
      expected("Council answers and syntheses", history.byFeature[0]!),
    ]);
    const today = history.byDay.at(-1)!;
    expect(await tableRows(page, "spend-by-day")).toEqual([expected(today.day, today)]);

    // The answer with no price: counted and said, never $0.
    expect(await tableRows(page, "spend-by-model")).toContainEqual([
      "openai:spend-e2e-unpriced",
      "cost unknown",
      "1",
      "1",
    ]);
    expect(await readableText(page.getByTestId("spend-total"))).toContain("1 of them with no price");
    expect(await readableText(page.getByTestId("spend-caps"))).toContain("Day cap (QUORUM_MAX_DAY_USD) none set");

    await screenshot(page, "spend-page");

    // The chart says its numbers.
    const desc = await page.locator("#spend-chart-desc").textContent();
    expect(desc).toBe(`${today.day}: ${formatSpend(today)} in ${today.calls} calls`);
  });

  test("on a 390 px phone the page fits, every control is named, and the navigation wraps no more than on another page", async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, touch: true });
    await page.goto(`${server.url}/spend`);
    await page.getByTestId("spend-chart").waitFor({ timeout: 10_000 });
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, "spend-page-phone");
    // The spend line, now a link, wraps the navigation no more than on any other page.
    const navLines = async () =>
      new Set(
        await page
          .locator("nav[aria-label=Main] a")
          .evaluateAll((links: { getBoundingClientRect(): { top: number } }[]) =>
            links.map((a) => Math.round(a.getBoundingClientRect().top)),
          ),
      ).size;
    const onSpend = await navLines();
    await page.goto(`${server.url}/history`);
    await page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 10_000 });
    expect(onSpend).toBe(await navLines());
    expect(await page.getByTestId("spend-line").isVisible()).toBe(true);
  });
});
