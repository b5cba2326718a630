/**
 * The leaderboard page's "new" badge and settled notice in a real browser, on imported battles: three models far
 * apart, whose order is settled, and a newcomer with a dozen battles, which is new and leaves the order open.
 */
import { expect, test } from "vitest";
import { simulateBattles, type Battle } from "../helpers/arena-reference";
import { screenshot } from "../helpers/e2e-browser";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

const APART = simulateBattles({ ant: 1400, bee: 1000, cat: 600 }, 1_200, 61);
/** Six wins each way against bee. */
const NEWCOMER: Battle[] = Array.from({ length: 12 }, (_, k) => ({
  model_a: "newbie",
  model_b: "bee",
  winner: k % 2 ? "model_a" : "model_b",
  tstamp: 1_800_000_000 + k,
}));

describeInBrowser("The settled notice and new models in a real browser", () => {
  const { server, open } = browserSuite({ vars: { QUORUM_LOG: "off" } });

  async function importInto(category: string, battles: Battle[]) {
    const res = await fetch(`${server.url}/api/battles/import?importId=${category}`, {
      method: "POST",
      body: battles.map((b) => JSON.stringify({ ...b, category })).join("\n"),
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(res.status).toBe(200);
  }

  test("a settled order says so above the table; a newcomer shows a new badge and no notice", async () => {
    await importInto("e2e-apart", APART);
    await importInto("e2e-newcomer", [...APART, ...NEWCOMER]);
    const page = await open();

    await page.goto(`${server.url}/leaderboard?source=import&category=e2e-apart`);
    const notice = page.getByTestId("settled");
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.innerText()).toMatch(/^Settled: the whole order won't change with 95% confidence/);
    expect(await page.locator("table.leaderboard .badge.new").count()).toBe(0);
    await screenshot(page, "leaderboard-settled");

    await page.goto(`${server.url}/leaderboard?source=import&category=e2e-newcomer`);
    const newcomer = page.locator('tr[data-model="newbie"]');
    await newcomer.waitFor({ timeout: 10_000 });
    expect(await newcomer.locator(".badge.new").innerText()).toBe("new");
    expect(await page.locator("table.leaderboard .badge.new").count()).toBe(1);
    expect(await page.getByTestId("settled").count()).toBe(0);
    await screenshot(page, "leaderboard-new-model");
  });
});
