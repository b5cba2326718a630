/**
 * Style control in a real browser: imported Chatbot Arena battles whose longer answers win more often,
 * the leaderboard's "Style control" box, the background fit, and the effects it reports.
 */
import { expect, test } from "vitest";
import { mulberry32 } from "../helpers/arena-reference";
import { screenshot } from "../helpers/e2e-browser";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

/** Equal-strength models where the longer answer wins more often. */
function battles(count: number): string {
  const random = mulberry32(7);
  const models = ["style-one", "style-two", "style-three"];
  return Array.from({ length: count }, (_, k) => {
    const i = Math.floor(random() * 3);
    const j = (i + 1 + Math.floor(random() * 2)) % 3;
    const [ta, tb] = [100 + Math.floor(random() * 500), 100 + Math.floor(random() * 500)];
    const winner = random() < 1 / (1 + Math.exp((-3 * (ta - tb)) / (ta + tb + 1))) ? "model_a" : "model_b";
    const side = (tokens: number) => ({
      tokens,
      headers: Math.floor(random() * 3),
      lists: Math.floor(random() * 3),
      bold: Math.floor(random() * 2),
    });
    const [a, b] = [side(ta), side(tb)];
    const conv_metadata = {
      sum_assistant_a_tokens: a.tokens,
      header_count_a: { h1: a.headers },
      list_count_a: { ordered: a.lists },
      bold_count_a: { "**": a.bold },
      sum_assistant_b_tokens: b.tokens,
      header_count_b: { h1: b.headers },
      list_count_b: { ordered: b.lists },
      bold_count_b: { "**": b.bold },
    };
    return JSON.stringify({ model_a: models[i], model_b: models[j], winner, tstamp: 1_700_000_000 + k, conv_metadata });
  }).join("\n");
}

describeInBrowser("Style control in a real browser", () => {
  const { server, open } = browserSuite({ vars: { QUORUM_LOG: "off" } });

  test("ticking Style control fits in the background, then shows ratings with style held equal and what length is worth", async () => {
    const res = await fetch(`${server.url}/api/battles/import?importId=style-e2e`, {
      method: "POST",
      body: battles(1500),
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(res.status).toBe(200);
    const page = await open();
    await page.goto(`${server.url}/leaderboard?source=import`);
    await page.getByRole("checkbox", { name: "Style control" }).check();
    expect(new URL(page.url()).searchParams.get("style")).toBe("true");
    const effects = page.getByRole("region", { name: "Style effects" }).or(page.locator("section.style-effects"));
    await effects.waitFor({ timeout: 60_000 });
    const longer = await page.locator(".style-effects li", { hasText: "Longer answers" }).innerText();
    const factor = Number(/×(\d+\.\d+)/.exec(longer)![1]);
    // the table and the effects show the style-controlled fit the API gives: arena-rank's, with style=true
    const api = (await (await fetch(`${server.url}/api/leaderboard?source=import&style=true`)).json()) as {
      rows: { modelId: string; bt: number }[];
      style: { status: string; method: string; features: { name: string; oddsFactor: number }[] };
    };
    expect(api.style).toMatchObject({ status: "ready", method: "arena-rank" });
    const tokens = api.style.features.find((f) => f.name === "tokens")!;
    expect(Math.abs(factor - tokens.oddsFactor)).toBeLessThanOrEqual(0.005);
    // the planted length effect: longer answers win more often at equal strength
    expect(factor).toBeGreaterThan(1.05);
    for (const row of api.rows)
      await expect
        .poll(() => page.locator(`tr[data-model="${row.modelId}"]`).innerText())
        .toContain(String(Math.round(row.bt)));
    await screenshot(page, "leaderboard-style-control");
  });
});
