/**
 * A leaderboard over many imported models in a real browser: the page says the ratings are being fitted (and
 * online Elo replayed: more battles than a read may replay, QUORUM_INLINE_REPLAY_BATTLES) in the background, asks
 * again, and shows them once done.
 */
import { expect, test } from "vitest";
import { mulberry32 } from "../helpers/arena-reference";
import { ringBattles } from "../helpers/ring-battles";
import { browserSuite, describeInBrowser } from "../helpers/e2e-suite";

/** A ring among `models` names (so every model is rated) plus random pairs, each a coin toss. */
function battles(models: number, extra: number): string {
  return ringBattles({ models, extra, category: "many", random: mulberry32(3), winProbability: () => 0.5 })
    .map((l) => JSON.stringify(l))
    .join("\n");
}

describeInBrowser("A large leaderboard in a real browser", () => {
  const { server, open } = browserSuite({ vars: { QUORUM_LOG: "off", QUORUM_INLINE_REPLAY_BATTLES: "1000" } });

  test("says the ratings of 400 models are being fitted and Elo replayed in the background, then shows them", async () => {
    const res = await fetch(`${server.url}/api/battles/import?importId=many`, {
      method: "POST",
      body: battles(400, 6000),
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(res.status).toBe(200);
    const page = await open();
    await page.goto(`${server.url}/leaderboard?source=import&category=many`);
    const computing = page.getByTestId("fit-computing");
    await computing.waitFor({ timeout: 30_000 });
    expect(await computing.innerText()).toContain(
      "Bradley–Terry ratings over 400 models are being fitted in the background",
    );
    const replaying = page.getByTestId("online-computing");
    await replaying.waitFor({ timeout: 30_000 });
    expect(await replaying.innerText()).toContain("Online Elo and TrueSkill are being replayed");
    await computing.waitFor({ state: "detached", timeout: 60_000 });
    await replaying.waitFor({ state: "detached", timeout: 60_000 });
    const api = (await (await fetch(`${server.url}/api/leaderboard?source=import&category=many`)).json()) as {
      rows: { modelId: string; bt: number; elo: number }[];
      fit: { status: string };
      online: { status: string };
    };
    expect([api.fit.status, api.online.status]).toEqual(["ready", "ready"]);
    const top = api.rows[0];
    const row = () => page.locator("tr", { hasText: top.modelId }).first().innerText();
    await expect.poll(row).toContain(String(Math.round(top.bt)));
    await expect.poll(row).toContain(String(Math.round(top.elo)));
  });
});
