import { env, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ComparisonRoom } from "../../worker/rooms/comparison-room";
import { createRunInput } from "../../worker/shared/requests";
import { castVote, errorOf, getComparison, hasRoom, openComparisonSocket, readyComparison } from "../helpers/arena";
import { api, createRun, finished, getRun, openSocket } from "../helpers/runs";

const TAGGED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[0-9a-f]{32}$/;
const DEMO = [{ id: "demo:concise" }, { id: "demo:thorough" }];

type Call = [method: string, path: string, body?: unknown];

const comparisonCalls = (id: string): Call[] => [
  ["GET", `/comparisons/${id}`],
  ["POST", `/comparisons/${id}/messages`, { content: "And now?" }],
  ["POST", `/comparisons/${id}/retry`],
  ["POST", `/comparisons/${id}/judge`, { judges: ["demo:concise"] }],
  ["POST", `/comparisons/${id}/votes`, { choice: "left" }],
  ["WS", `/comparisons/${id}/ws`],
  ["POST", `/comparisons/${id}/share`],
  ["GET", `/comparisons/${id}/shares`],
];

const runCalls = (id: string): Call[] => [
  ["GET", `/runs/${id}`],
  ["DELETE", `/runs/${id}`],
  ["POST", `/runs/${id}/cancel`],
  ["POST", `/runs/${id}/evaluate`],
  ["POST", `/runs/${id}/answers`, { modelIds: ["demo:concise"] }],
  ["GET", `/runs/${id}/export?format=md`],
  ["WS", `/runs/${id}/ws`],
  ["POST", `/runs/${id}/share`],
  ["GET", `/runs/${id}/shares`],
];

function send([method, path, body]: Call): Promise<Response> {
  if (method === "WS") return api(path, { headers: { Upgrade: "websocket" } });
  return api(path, { method, ...(body === undefined ? {} : { json: body }) });
}

/** Every object with storage in both room namespaces, as ids: what "nothing was created" is checked against. */
async function allRooms(): Promise<string[]> {
  const ids = [...(await listDurableObjectIds(env.COMPARISON_ROOM)), ...(await listDurableObjectIds(env.RUN_ROOM))];
  return ids.map((id) => id.toString()).sort();
}

/** `id` with the last hex digit of its tag changed. */
const tampered = (id: string) => id.replace(/.$/, (ch) => (ch === "0" ? "1" : "0"));

describe("ids the server made", () => {
  it("carry a tag, and an id it didn't make is a 404 on every route and socket of comparisons and runs that creates no room", async () => {
    const comparison = (await readyComparison(["openai:pool-gpt", "anthropic:pool-claude"])).comparison.id;
    const run = await createRun({ question: "Name three primes.", models: DEMO });
    await finished(run);
    expect(comparison).toMatch(TAGGED);
    expect(run).toMatch(TAGGED);

    const uuid = crypto.randomUUID();
    const forgedComparisons = [uuid, `${uuid}-${"0".repeat(32)}`, tampered(comparison), run];
    const forgedRuns = [uuid, `${uuid}-${"0".repeat(32)}`, tampered(run), comparison];
    const before = await allRooms();
    const sharesBefore = await env.DB.prepare("SELECT count(*) AS n FROM shares").first<number>("n");

    const calls = [...forgedComparisons.flatMap(comparisonCalls), ...forgedRuns.flatMap(runCalls)];
    for (const call of calls) {
      const res = await send(call);
      expect(res.status, `${call[0]} ${call[1]}`).toBe(404);
      expect((await errorOf(res)).code).toBe("not_found");
    }
    expect(calls).toHaveLength(4 * 8 + 4 * 9);

    for (const id of [...forgedComparisons, ...forgedRuns]) {
      // The real comparison and run, each asked for at the other's routes, have their own room only.
      expect(await hasRoom(env.COMPARISON_ROOM, id), id).toBe(id === comparison);
      expect(await hasRoom(env.RUN_ROOM, id), id).toBe(id === run);
    }
    expect(await allRooms()).toEqual(before);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shares").first<number>("n")).toBe(sharesBefore);
    // The real ones still answer.
    expect((await getComparison(comparison)).comparison.id).toBe(comparison);
    expect((await getRun(run)).run.id).toBe(run);
  });

  it("from before tags keep working while D1 holds their row", async () => {
    const legacyRun = crypto.randomUUID();
    const { question, models, settings } = createRunInput.parse({ question: "Name three primes.", models: DEMO });
    await env.RUN_ROOM.get(env.RUN_ROOM.idFromName(legacyRun)).start({ id: legacyRun, question, models, settings });
    expect((await finished(legacyRun)).run.status).toBe("done");
    const runSocket = await openSocket(legacyRun);
    expect((await runSocket.waitFor("snapshot")).type).toBe("snapshot");
    runSocket.close();

    const legacyComparison = crypto.randomUUID();
    const room = env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(legacyComparison));
    await room.start({
      id: legacyComparison,
      prompt: "Explain recursion in one paragraph.",
      models: { left: "openai:pool-gpt", right: "anthropic:pool-claude" },
      category: null,
      blind: true,
      mode: "manual",
      modeNote: null,
      params: {},
      maxTurns: 3,
      timeoutMs: 10_000,
      autoJudges: [],
    });
    // The first step lists the comparison in D1 and asks both sides; this waits for it to end.
    await runInDurableObject(room, (instance: ComparisonRoom) => instance.alarm());
    expect((await getComparison(legacyComparison)).comparison.status).toBe("ready");
    const socket = await openComparisonSocket(legacyComparison);
    expect((await socket.waitFor("snapshot")).type).toBe("snapshot");
    socket.close();
    const cast = await castVote(legacyComparison, "left");
    expect(cast.rows).toHaveLength(1);
    expect(cast.receipt).toMatch(/^[0-9a-f]{32}$/);
  });
});

/** A battle between the anchor test's two models, with the style features Arena's logs carry. */
function styledBattle(k: number, winner: "model_a" | "model_b") {
  const side = (tokens: number) => ({
    tokens,
    headers: { h1: 0, h2: 0 },
    lists: { ordered: 0, unordered: 0 },
    bold: { "**": 0, __: 0 },
  });
  const [a, b] = [side(100 + k), side(120 + k)];
  return JSON.stringify({
    model_a: "anchor-x",
    model_b: "anchor-y",
    winner,
    tstamp: 1_700_000_000 + k,
    category: "style-rooms",
    conv_metadata: {
      sum_assistant_a_tokens: a.tokens,
      header_count_a: a.headers,
      list_count_a: a.lists,
      bold_count_a: a.bold,
      sum_assistant_b_tokens: b.tokens,
      header_count_b: b.headers,
      list_count_b: b.lists,
      bold_count_b: b.bold,
    },
  });
}

interface StyleBoard {
  rows: { modelId: string; bt: number | null }[];
  anchor: { modelId: string; rating: number } | null;
  style: { status: string; battles?: number; features?: unknown[]; withoutFeatures?: number };
}

/** The style-controlled view once its room has fitted it (every read a request; the wait has a deadline). */
async function fittedStyle(query: string, timeoutMs = 20_000): Promise<StyleBoard> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = (await (await api(`/leaderboard?${query}`)).json()) as StyleBoard;
    if (view.style.status === "ready") return view;
    if (Date.now() > deadline) throw new Error(`style control not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("style-control views the client names", () => {
  it("create a room only for a view with battles, and one per anchor model whatever its rating", async () => {
    const rooms = async () => (await listDurableObjectIds(env.STYLE_ROOM)).length;
    const before = await rooms();
    for (let i = 0; i < 3; i++) {
      const res = await api(`/leaderboard?style=true&category=${crypto.randomUUID()}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as StyleBoard).style).toEqual({
        status: "ready",
        method: "arena-rank",
        features: [],
        battles: 0,
        withoutFeatures: 0,
      });
    }
    expect(await rooms()).toBe(before);

    const log = Array.from({ length: 12 }, (_, k) => styledBattle(k, k % 3 === 0 ? "model_b" : "model_a")).join("\n");
    expect((await api("/battles/import?importId=style-rooms", { method: "POST", body: log })).status).toBe(200);
    const view = "source=import&category=style-rooms&style=true&rounds=0&anchor=anchor-x";
    for (const rating of [1114, 1200]) {
      const fitted = await fittedStyle(`${view}&anchorRating=${rating}`);
      expect(fitted.style.battles).toBe(12);
      expect(fitted.rows.find((r) => r.modelId === "anchor-x")!.bt).toBeCloseTo(rating, 9);
    }
    expect(await rooms()).toBe(before + 1);
  });
});
