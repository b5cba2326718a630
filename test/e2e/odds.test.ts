/**
 * The leaderboard's "who beats whom" heat map in a real browser: a table a screen reader reads (row and column
 * headers, every chance written as text), its numbers the API's, its colours readable in both schemes. And the
 * page's import taking lmarena's Kaggle CSV, whose battles then show in the table and the heat map.
 */
import { expect, test } from "vitest";
import { mulberry32 } from "../helpers/arena-reference";
import { screenshot } from "../helpers/e2e-browser";
import { fitsWidth, unlabelledControls } from "../helpers/e2e-page";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

/** Twelve imported models of planted strengths, so the top ten leave two out. */
function battles(): string {
  const random = mulberry32(11);
  const models = Array.from({ length: 12 }, (_, k) => `heat-${k}`);
  return Array.from({ length: 1200 }, (_, k) => {
    const a = k % 12;
    const b = (a + 1 + Math.floor(random() * 11)) % 12;
    const winner = random() < 1 / (1 + Math.exp((b - a) / 4)) ? "model_a" : "model_b";
    return JSON.stringify({ model_a: models[a], model_b: models[b], winner, tstamp: 1_700_000_000 + k });
  }).join("\n");
}

interface Odds {
  models: { modelId: string; displayName: string }[];
  odds: (number | null)[][];
}

/** Each body row's cells as a person reads them. */
const CELLS = `Array.from(document.querySelectorAll("table.odds tbody tr"), (tr) =>
  Array.from(tr.querySelectorAll("td"), (td) => td.innerText.replace(/\\s+/g, " ").trim()))`;

/** WCAG's contrast ratio of every chance's text against its cell's own background. */
const CONTRASTS = `(() => {
  const channels = (css) => css.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (css) => {
    const [r, g, b] = channels(css).map((v) => v / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return Array.from(document.querySelectorAll("table.odds td.odds-cell"), (td) => {
    const style = getComputedStyle(td);
    const [x, y] = [luminance(style.color), luminance(style.backgroundColor)];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  });
})()`;

describeInBrowser("Who beats whom, and lmarena's CSV, in a real browser", () => {
  const { server, open } = browserSuite({ vars: { QUORUM_LOG: "off" } });

  test("a .csv battle log uploads through the import form, its bad row reported, and its models are rated and set against each other", async () => {
    const header = "id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie";
    const rows = [
      `1,kaggle-a,kaggle-b,"[""Hi, there""]","[""Hello!""]","[""Hey""]",1,0,0`,
      `2,kaggle-b,kaggle-c,"[""Poem""]","[""Roses""]","[""Violets""]",1,0,0`,
      `3,kaggle-c,kaggle-a,"[""Joke""]","[""Ha""]","[""Heh""]",0,0,1`,
      `4,kaggle-a,kaggle-c,"[""x""]","[""y""]","[""z""]",0,0,0`,
    ];
    const page = await open();
    await page.goto(`${server.url}/leaderboard?source=import`);
    await page.getByLabel("Battle log file").setInputFiles({
      name: "train.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`${header}\r\n${rows.join("\r\n")}\r\n`),
    });
    await page.getByRole("button", { name: "Import" }).click();
    const report = page.getByTestId("import-report");
    await report.getByText("Accepted").waitFor({ timeout: 10_000 });
    expect((await report.innerText()).replace(/\s+/g, " ").trim()).toBe(
      'Accepted 3 battles; rejected 1. Line 4: exactly one of winner_model_a, winner_model_b and winner_tie must be 1 and the others 0; got "0", "0", "0"',
    );
    await page.locator('tr[data-model="kaggle-a"]').waitFor({ timeout: 10_000 });
    expect(await page.locator("table.leaderboard tbody tr").count()).toBe(3);
    const table = page.getByRole("table", { name: "Chance the row's model beats the column's" });
    await table.waitFor({ timeout: 10_000 });
    expect(await table.locator("tbody th[scope=row]").count()).toBe(3);
    await screenshot(page, "leaderboard-kaggle-csv");
  });

  test("the leaderboard shows the top ten's odds as a labelled table of percentages, the API's numbers, readable at phone width in dark mode", async () => {
    const res = await fetch(`${server.url}/api/battles/import?importId=heat`, {
      method: "POST",
      body: battles(),
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(res.status).toBe(200);
    const api = (await (await fetch(`${server.url}/api/leaderboard/odds?source=import`)).json()) as Odds;
    expect(api.models).toHaveLength(10);

    for (const options of [{}, { viewport: { width: 390, height: 844 }, colorScheme: "dark" as const }]) {
      const page = await open(options);
      await page.goto(`${server.url}/leaderboard?source=import`);
      const table = page.getByRole("table", { name: "Chance the row's model beats the column's" });
      await table.waitFor({ timeout: 10_000 });
      const heads = await table.locator("thead th[scope=col]").allInnerTexts();
      expect(heads.slice(1)).toEqual(api.models.map((m) => m.displayName));
      expect(await table.locator("tbody th[scope=row]").allInnerTexts()).toEqual(api.models.map((m) => m.displayName));
      const cells = (await page.evaluate(CELLS)) as string[][];
      for (const [i, line] of api.odds.entries())
        for (const [j, p] of line.entries()) {
          if (p === null) expect(cells[i][j]).toMatch(/^— ?itself$/);
          else expect(cells[i][j]).toBe(p < 0.005 ? "<1%" : p > 0.995 ? ">99%" : `${Math.round(p * 100)}%`);
        }
      const contrasts = (await page.evaluate(CONTRASTS)) as number[];
      expect(contrasts).toHaveLength(90);
      expect(Math.min(...contrasts)).toBeGreaterThanOrEqual(4.5);
      expect(await unlabelledControls(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, options.colorScheme ? "odds-heatmap-phone-dark" : "odds-heatmap");
    }
  });
});
