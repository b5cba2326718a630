import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { api } from "../helpers/runs";
import { castVote, readyComparison } from "../helpers/arena";
import { fitStyleControlled } from "../../worker/rating/style-control";
import { contextualStyleFeatures, fitContextualBradleyTerry } from "../../worker/rating/contextual-bt";
import { styleDiffs } from "../../worker/rating/style-features";
import { scriptModel } from "../helpers/stub-client";
import { mulberry32 } from "../helpers/arena-reference";
import { denseIndex } from "../../worker/shared/memo";

const stub = inject("stubUrl");

interface StyleView {
  rows: { modelId: string; bt: number | null; ciLower: number | null; ciUpper: number | null }[];
  style:
    | null
    | { status: "computing" }
    | {
        status: "ready";
        method: "arena-rank" | "fastchat";
        battles: number;
        withoutFeatures: number;
        features: { name: string; beta: number; lower: number; upper: number; oddsFactor: number }[];
      };
}

async function styleBoard(query: string, timeoutMs = 30_000): Promise<{ first: StyleView; ready: StyleView }> {
  const read = async () => (await (await api(`/leaderboard?${query}`)).json()) as StyleView;
  const first = await read();
  const deadline = Date.now() + timeoutMs;
  for (let view = first; ; view = await read()) {
    if (view.style?.status === "ready") return { first, ready: view };
    if (Date.now() > deadline) throw new Error(`style control not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Equal-strength models where the longer answer wins more often: a planted length effect. */
function lengthBiasedBattles(count: number) {
  const random = mulberry32(99);
  const models = ["len-1", "len-2", "len-3", "len-4"];
  return Array.from({ length: count }, (_, k) => {
    const i = Math.floor(random() * 4);
    const j = (i + 1 + Math.floor(random() * 3)) % 4;
    const [ta, tb] = [100 + Math.floor(random() * 500), 100 + Math.floor(random() * 500)];
    const pa = 1 / (1 + Math.exp((-3 * (ta - tb)) / (ta + tb + 1)));
    const winner = random() < 0.08 ? "tie" : random() < pa ? "model_a" : "model_b";
    const side = (tokens: number) => ({
      tokens,
      headers: Math.floor(random() * 3),
      lists: Math.floor(random() * 4),
      bold: Math.floor(random() * 2),
    });
    const [a, b] = [side(ta), side(tb)];
    return {
      model_a: models[i],
      model_b: models[j],
      winner,
      tstamp: 1_700_000_000 + k,
      category: "style",
      conv_metadata: {
        sum_assistant_a_tokens: a.tokens,
        header_count_a: { h1: a.headers, h2: 0 },
        list_count_a: { ordered: a.lists, unordered: 0 },
        bold_count_a: { "**": a.bold, __: 0 },
        sum_assistant_b_tokens: b.tokens,
        header_count_b: { h1: b.headers, h2: 0 },
        list_count_b: { ordered: b.lists, unordered: 0 },
        bold_count_b: { "**": b.bold, __: 0 },
      },
      counts: [a, b] as const,
    };
  });
}

describe("style control on the leaderboard", () => {
  const battles = lengthBiasedBattles(3000);

  it("is fitted in the background, finds a planted length effect, and holds style equal in the ratings (style=fastchat)", async () => {
    const body = battles.map(({ counts: _c, ...b }) => JSON.stringify(b)).join("\n");
    const res = await api("/battles/import?importId=style", { method: "POST", body });
    expect(res.status).toBe(200);
    // Two battles without features: counted in the plain view, left out of the style fit and said so.
    await api("/battles/import?importId=plain", {
      method: "POST",
      body: [
        JSON.stringify({ model_a: "len-1", model_b: "len-2", winner: "model_a", tstamp: 1, category: "style" }),
        JSON.stringify({ model_a: "len-3", model_b: "len-4", winner: "tie", tstamp: 2, category: "style" }),
      ].join("\n"),
    });

    const { first, ready } = await styleBoard("source=import&category=style&style=fastchat&rounds=20");
    expect(first.style).toEqual({ status: "computing" });
    const style = ready.style as Extract<StyleView["style"], { status: "ready" }>;
    expect(style.method).toBe("fastchat");
    expect([style.battles, style.withoutFeatures]).toEqual([3000, 2]);
    const tokens = style.features.find((f) => f.name === "tokens")!;
    expect(tokens.beta).toBeGreaterThan(0.3);
    expect(tokens.lower).toBeGreaterThan(0);
    expect(tokens.oddsFactor).toBeCloseTo(Math.exp(tokens.beta), 12);

    // The same numbers as the fit run directly on the same battles.
    const names = ["len-1", "len-2", "len-3", "len-4"];
    const at = new Map<string, number>();
    const order = (m: string) => denseIndex(at, m);
    const direct = fitStyleControlled(
      4,
      battles.map((b) => ({
        a: order(b.model_a),
        b: order(b.model_b),
        winner: b.winner as "model_a",
        diffs: styleDiffs(b.counts[0], b.counts[1]),
      })),
    );
    for (const name of names) {
      const row = ready.rows.find((r) => r.modelId === name)!;
      expect(row.bt!).toBeCloseTo(direct.ratings[at.get(name)!], 6);
      // equal strengths: every interval holds the mean
      expect(row.ciLower!).toBeLessThan(1000);
      expect(row.ciUpper!).toBeGreaterThan(1000);
    }
    const plain = (await (await api("/leaderboard?source=import&category=style")).json()) as StyleView;
    expect(plain.style).toBeNull();
  });

  it("is arena-rank's contextual Bradley–Terry with style=true: reweighted, sandwich intervals, its features", async () => {
    const { ready } = await styleBoard("source=import&category=style&style=true");
    const style = ready.style as Extract<StyleView["style"], { status: "ready" }>;
    expect(style.method).toBe("arena-rank");
    expect(ready).toMatchObject({ ci: "sandwich", reweight: true });
    expect(style.features.map((f) => f.name)).toEqual(["tokens", "headers", "bold", "lists"]);
    const tokens = style.features[0];
    expect(tokens.lower).toBeGreaterThan(0);
    expect(tokens.oddsFactor).toBeCloseTo(Math.exp(tokens.beta), 12);

    // The same numbers as arena-rank's fit run directly on the same battles, its features from the same counts.
    const at = new Map<string, number>();
    const order = (m: string) => denseIndex(at, m);
    const names = ["tokens", "headers", "bold", "lists"] as const;
    const direct = fitContextualBradleyTerry(
      4,
      battles.map((b) => ({
        a: order(b.model_a),
        b: order(b.model_b),
        winner: b.winner as "model_a",
        features: contextualStyleFeatures(
          names.map((f) => b.counts[0][f]),
          names.map((f) => b.counts[1][f]),
        ),
      })),
      { reweight: true },
    );
    for (const name of ["len-1", "len-2", "len-3", "len-4"]) {
      const row = ready.rows.find((r) => r.modelId === name)!;
      const k = at.get(name)!;
      expect(row.bt!).toBeCloseTo(direct.ratings[k], 6);
      expect(row.ciLower!).toBeCloseTo(direct.lower[k], 6);
      expect(row.ciUpper!).toBeCloseTo(direct.upper[k], 6);
    }
    expect(tokens.beta).toBeCloseTo(direct.coefficients[0], 9);
  });

  it("stores a vote's style features in Arena's conv_metadata shape", async () => {
    await scriptModel(stub, "style-left", [{ text: "# Title\n\n- one\n- two\n\n**bold** words here" }]);
    await scriptModel(stub, "style-right", [{ text: "Plain short answer." }]);
    const id = (await readyComparison(["openai:style-left", "google:style-right"])).comparison.id;
    const vote = await castVote(id, "left");
    const row = await env.DB.prepare("SELECT conv_metadata AS meta FROM battles WHERE vote_id = ?")
      .bind(vote.voteId)
      .first<{ meta: string }>();
    const meta = JSON.parse(row!.meta);
    const [rich, bare] = vote.reveal.left.modelId === "openai:style-left" ? ["a", "b"] : ["b", "a"];
    expect([meta[`header_count_${rich}`], meta[`list_count_${rich}`], meta[`bold_count_${rich}`]]).toEqual([1, 2, 1]);
    expect([meta[`header_count_${bare}`], meta[`list_count_${bare}`], meta[`bold_count_${bare}`]]).toEqual([0, 0, 0]);
    expect(meta[`sum_assistant_${rich}_tokens`]).toBeGreaterThan(meta[`sum_assistant_${bare}_tokens`]);
  });
  it("on battles without style metadata has nothing to fit: the plain ratings stand and zero battles says why", async () => {
    const lines = [
      { model_a: "bare-1", model_b: "bare-2", winner: "model_a", tstamp: 10 },
      { model_a: "bare-2", model_b: "bare-3", winner: "model_a", tstamp: 11 },
      { model_a: "bare-3", model_b: "bare-1", winner: "tie", tstamp: 12 },
    ].map((b) => JSON.stringify({ ...b, category: "bare" }));
    expect((await api("/battles/import?importId=bare", { method: "POST", body: lines.join("\n") })).status).toBe(200);
    const plain = (await (await api("/leaderboard?source=import&category=bare")).json()) as StyleView;
    const { ready } = await styleBoard("source=import&category=bare&style=true");
    expect(ready.style).toEqual({
      status: "ready",
      method: "arena-rank",
      features: [],
      battles: 0,
      withoutFeatures: 3,
    });
    expect(ready.rows.map((r) => [r.modelId, r.bt, r.ciLower, r.ciUpper])).toEqual(
      plain.rows.map((r) => [r.modelId, r.bt, r.ciLower, r.ciUpper]),
    );
    expect(ready.rows.every((r) => r.bt !== null)).toBe(true);
  });
});
