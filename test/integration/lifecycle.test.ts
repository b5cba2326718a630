import { abortAllDurableObjects, env, evictDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { client, ok } from "../helpers/client";
import { api, createRun, finished, finishedAgain, getRun, openSocket } from "../helpers/runs";
import { storedLog } from "../helpers/sockets";
import { callsFor, releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");
const roomOf = (id: string) => env.RUN_ROOM.get(env.RUN_ROOM.idFromName(id));
const DEMO3 = [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }];

describe("live events", () => {
  it("starts with a snapshot, then numbers every event in order", async () => {
    const id = await createRun({ question: "How do tides work?", models: DEMO3 });
    const socket = await openSocket(id);
    await socket.waitFor("run.completed");
    socket.close();
    const [first, ...rest] = socket.events;
    expect(first.type).toBe("snapshot");
    const seqs = rest.map((e) => e.seq);
    expect(seqs[0]).toBe(first.seq + 1);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1] + 1);
    expect(rest.filter((e) => e.type === "answer.delta").length).toBeGreaterThan(3);
    expect(rest.filter((e) => e.type === "review.completed")).toHaveLength(3);
  });

  it("replays exactly the events after `since` to a client that reconnects", async () => {
    const id = await createRun({ question: "Why is the sky blue?", models: DEMO3 });
    const full = await openSocket(id, 0);
    await full.waitFor("run.completed");
    full.close();
    expect(full.events[0].seq).toBe(1);

    const cut = full.events[Math.floor(full.events.length / 2)].seq;
    const resumed = await openSocket(id, cut);
    await resumed.waitFor("run.completed");
    resumed.close();
    expect(resumed.events.map((e) => e.seq)).toEqual(full.events.filter((e) => e.seq > cut).map((e) => e.seq));
    expect(resumed.events).toEqual(full.events.filter((e) => e.seq > cut));
  });

  it("stores no delta, and a room restarted mid-stream numbers on above every delta a client saw", async () => {
    await scriptModel(stub, "delta-cut", [
      { text: "one two three four five six seven eight nine", chunkDelayMs: 30_000 },
      { text: "Answered after the restart." },
    ]);
    const id = await createRun({ question: "Numbers after a restart?", models: [{ id: "openai:delta-cut" }] });
    const socket = await openSocket(id, 0);
    const delta = await socket.waitFor("answer.delta");
    socket.close();
    expect((await storedLog(roomOf(id))).deltaMark).toBeGreaterThanOrEqual(delta.seq);

    await abortAllDurableObjects();
    const detail = await finished(id);
    expect(detail.answers[0].text).toBe("Answered after the restart.");
    // The deltas went with the old instance: a replay from one of them would have a gap, so the client gets a snapshot.
    const resumed = await openSocket(id, delta.seq);
    const first = await resumed.until(() => true, "a first message");
    resumed.close();
    expect(first.type).toBe("snapshot");
    expect(first.seq).toBeGreaterThan(delta.seq);

    const stored = await storedLog(roomOf(id));
    const types = stored.events.map((e) => e.type);
    expect(types).toContain("answer.completed");
    expect(types.filter((t) => t.endsWith(".delta"))).toEqual([]);
    expect(stored.deltaMark).toBeUndefined();
  });

  it("sends a snapshot when asked for events it never had", async () => {
    const id = await createRun({ question: "Gap?", models: [{ id: "demo:concise" }] });
    await finished(id);
    const socket = await openSocket(id, 1_000_000);
    const snap = await socket.waitFor("snapshot");
    socket.close();
    expect(snap.state.run.status).toBe("done");
  });

  it("refuses a plain GET on the socket address and an unknown run", async () => {
    const id = await createRun({ question: "Plain?", models: [{ id: "demo:concise" }] });
    expect((await api(`/runs/${id}/ws`)).status).toBe(426);
    const res = await api(`/runs/no-such-run/ws`, { headers: { Upgrade: "websocket" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "Run not found." } });
  });
});

describe("resumption", () => {
  it("resumes after a restart mid-call, asking again only the model that was cut off", async () => {
    await scriptModel(stub, "crash-fast", [{ text: "Done before the crash." }]);
    await scriptModel(stub, "crash-held", [
      { holdKey: "crash-held-1", text: "lost with the old instance" },
      { text: "Answered after the restart." },
    ]);
    const id = await createRun({
      question: "Survive a restart?",
      models: [{ id: "openai:crash-fast" }, { id: "anthropic:crash-held" }],
    });
    const socket = await openSocket(id);
    await socket.waitFor("answer.completed");
    await waitForHeld(stub, "crash-held-1", 1, 10_000);
    socket.close();

    // evictDurableObject waits for in-flight work to drain, so it cannot cut a provider call short; an abort can.
    await abortAllDurableObjects();
    await releaseHold(stub, "crash-held-1");

    const detail = await finished(id);
    expect(detail.run.status).toBe("done");
    expect(detail.answers.find((a) => a.modelId === "openai:crash-fast")!.text).toBe("Done before the crash.");
    expect(detail.answers.find((a) => a.modelId === "anthropic:crash-held")!.text).toBe("Answered after the restart.");
    expect((await callsFor(stub, "crash-fast")).filter((c) => c.kind === "answer")).toHaveLength(1);
    expect((await callsFor(stub, "crash-held")).filter((c) => c.kind === "answer")).toHaveLength(2);
  });

  it("resumes after eviction mid-run and finishes without repeating a finished call", async () => {
    await scriptModel(stub, "evict-held", [{ holdKey: "evict-held-1", text: "Held, then answered." }]);
    const id = await createRun({
      question: "Survive eviction?",
      models: [{ id: "google:evict-held" }, { id: "openai:evict-other" }],
    });
    const socket = await openSocket(id);
    await waitForHeld(stub, "evict-held-1", 1, 10_000);
    const eviction = evictDurableObject(roomOf(id));
    await releaseHold(stub, "evict-held-1");
    await eviction;
    await socket.waitFor("run.completed");
    socket.close();

    const detail = await getRun(id);
    expect(detail.run.status).toBe("done");
    expect(detail.answers.find((a) => a.modelId === "google:evict-held")!.text).toBe("Held, then answered.");
    for (const model of ["evict-held", "evict-other"]) {
      const calls = await callsFor(stub, model);
      expect(calls.filter((c) => c.kind === "answer")).toHaveLength(1);
      expect(calls.filter((c) => c.kind === "review")).toHaveLength(1);
    }
  });

  it("keeps a finished run in D1 after its room is evicted", async () => {
    const id = await createRun({ question: "Still there?", models: DEMO3 });
    const before = await finished(id);
    await evictDurableObject(roomOf(id));
    const after = await getRun(id);
    expect(after).toEqual(before);
  });
});

describe("controls", () => {
  it("cancels a run: in-flight calls stop, finished answers stay", async () => {
    await scriptModel(stub, "cancel-held", [{ holdKey: "cancel-held-1" }]);
    const id = await createRun({
      question: "Cancel me",
      models: [{ id: "demo:concise" }, { id: "openai:cancel-held" }],
    });
    const socket = await openSocket(id);
    await socket.waitFor("answer.completed");
    await waitForHeld(stub, "cancel-held-1", 1, 10_000);
    const res = await client.runs[":id"].cancel.$post({ param: { id } });
    expect(res.status).toBe(200);
    await socket.waitFor("run.cancelled");
    socket.close();
    await releaseHold(stub, "cancel-held-1");
    const detail = await getRun(id);
    expect(detail.run.status).toBe("cancelled");
    expect(detail.answers.find((a) => a.modelId === "demo:concise")!.status).toBe("done");
    expect(detail.answers.find((a) => a.modelId === "openai:cancel-held")!.status).toBe("cancelled");
    expect((await client.runs[":id"].cancel.$post({ param: { id } })).status).toBe(409);
  });

  it("retries failed answers on request and ranks again", async () => {
    await scriptModel(stub, "flaky-claude", [{ status: 400 }]);
    const id = await createRun({
      question: "Retry me",
      models: [{ id: "anthropic:flaky-claude" }, { id: "demo:concise" }, { id: "demo:thorough" }],
    });
    const first = await finished(id);
    expect(first.answers.find((a) => a.modelId === "anthropic:flaky-claude")!.status).toBe("failed");
    expect(first.aggregation!.finalRanking).toHaveLength(2);

    await scriptModel(stub, "flaky-claude", [{ text: "Now it works." }]);
    const second = await finishedAgain(id, async () => {
      const res = await client.runs[":id"].answers.$post({ param: { id }, json: {} });
      expect(res.status).toBe(202);
    });
    expect(second.answers.find((a) => a.modelId === "anthropic:flaky-claude")!.text).toBe("Now it works.");
    expect(second.aggregation!.finalRanking).toHaveLength(3);
    expect(second.reviewers).toHaveLength(3);
  });

  it("drops the old ranking when answers are retried in a run that does not evaluate on its own", async () => {
    await scriptModel(stub, "stale-gpt", [{ status: 404 }]);
    const id = await createRun({
      question: "Stale?",
      models: [{ id: "openai:stale-gpt" }, ...DEMO3],
      settings: { autoEvaluate: false },
    });
    expect((await finished(id)).run.status).toBe("partial");
    const evaluated = await finishedAgain(
      id,
      async () => void (await client.runs[":id"].evaluate.$post({ param: { id } })),
    );
    expect(evaluated.aggregation!.finalRanking).toHaveLength(3);

    await scriptModel(stub, "stale-gpt", [{ text: "Back again." }]);
    const retried = await finishedAgain(
      id,
      async () =>
        void (await client.runs[":id"].answers.$post({ param: { id }, json: { modelIds: ["openai:stale-gpt"] } })),
    );
    expect(retried.run.status).toBe("partial");
    expect(retried.answers.find((a) => a.modelId === "openai:stale-gpt")!.text).toBe("Back again.");
    expect(retried.aggregation).toBeNull();
    expect(retried.reviewers).toEqual([]);
    const judged = await env.DB.prepare("select count(*) as n from battles where run_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(judged?.n).toBe(0);
  });

  it("evaluates later when auto-evaluate is off", async () => {
    const id = await createRun({ question: "Later", models: DEMO3, settings: { autoEvaluate: false } });
    const partial = await finished(id);
    expect(partial.run.status).toBe("partial");
    expect(partial.aggregation).toBeNull();
    const done = await finishedAgain(id, async () => {
      expect((await client.runs[":id"].evaluate.$post({ param: { id } })).status).toBe(202);
    });
    expect(done.run.status).toBe("done");
    expect(done.aggregation!.finalRanking).toHaveLength(3);
  });

  it("respects the concurrency cap", async () => {
    const models = ["cap-a", "cap-b", "cap-c"];
    for (const m of models) await scriptModel(stub, m, [{ holdKey: "cap-1", text: `answer ${m.slice(-1)}` }]);
    const id = await createRun({
      question: "One at a time",
      models: models.map((m) => ({ id: `openai:${m}` })),
      settings: { concurrency: 1 },
    });
    await waitForHeld(stub, "cap-1", 1, 10_000);
    const inFlight = (await Promise.all(models.map((m) => callsFor(stub, m)))).flat();
    expect(inFlight).toHaveLength(1);
    for (let i = 0; i < models.length; i++) {
      await waitForHeld(stub, "cap-1", 1, 10_000);
      expect(
        (await Promise.all(models.map((m) => callsFor(stub, m)))).flat().filter((c) => c.kind === "answer"),
      ).toHaveLength(i + 1);
      await releaseHold(stub, "cap-1");
    }
    expect((await finished(id)).run.status).toBe("done");
  });

  it("deletes a run with everything it wrote", async () => {
    const id = await createRun({ question: "Forget me", models: DEMO3 });
    await finished(id);
    expect((await client.runs[":id"].$delete({ param: { id } })).status).toBe(200);
    expect((await client.runs[":id"].$get({ param: { id } })).status).toBe(404);
    for (const table of ["answers", "reviews", "review_sets", "aggregations"]) {
      const row = await env.DB.prepare(`select count(*) as n from ${table} where run_id = ?`)
        .bind(id)
        .first<{ n: number }>();
      expect(row?.n).toBe(0);
    }
    const battles = await env.DB.prepare("select count(*) as n from battles where run_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(battles?.n).toBe(0);
  });
});

describe("history and export", () => {
  it("lists runs newest first, a page at a time", async () => {
    const ids: string[] = [];
    for (const q of ["first", "second", "third"]) {
      ids.push(await createRun({ question: `list ${q}`, models: [{ id: "demo:concise" }] }));
      await finished(ids.at(-1)!);
    }
    const page1 = await ok(client.runs.$get({ query: { limit: "2" } }));
    const page2 = await ok(client.runs.$get({ query: { limit: "2", cursor: page1.nextCursor ?? undefined } }));
    const all = [...page1.items, ...page2.items].map((i) => i.id);
    expect(all.indexOf(ids[2])).toBeLessThan(all.indexOf(ids[1]));
    expect(all.indexOf(ids[1])).toBeLessThan(all.indexOf(ids[0]));
    expect(page1.items).toHaveLength(2);
  });

  it("exports JSON and Markdown with the question and the ranking and no key", async () => {
    const id = await createRun({
      question: "Export this question",
      models: [{ id: "openai:export-gpt" }, { id: "demo:concise" }],
    });
    const detail = await finished(id);
    const json = await client.runs[":id"].export.$get({ param: { id }, query: { format: "json" } });
    expect(json.headers.get("content-disposition")).toContain(`quorum-run-${id}.json`);
    const body = await json.text();
    const parsed = JSON.parse(body);
    expect(parsed.run.question).toBe("Export this question");
    expect(parsed.aggregation.finalRanking).toEqual(detail.aggregation!.finalRanking);
    const md = await (await client.runs[":id"].export.$get({ param: { id }, query: { format: "md" } })).text();
    expect(md).toContain("Export this question");
    expect(md).toContain("## Ranking");
    for (const text of [body, md]) {
      for (const key of [env.OPENAI_API_KEY, env.ANTHROPIC_API_KEY, env.GOOGLE_API_KEY])
        expect(text).not.toContain(key);
    }
  });
});

describe("bad requests", () => {
  it("answers 400 with a message for every malformed run", async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /question/],
      [{ question: "", models: [{ id: "demo:concise" }] }, /question/],
      [{ question: "q", models: [] }, /at least one model/],
      [{ question: "q", models: [{ id: "nonsense" }] }, /provider:model-name/],
      [{ question: "q", models: [{ id: "acme:big-model" }] }, /unknown provider "acme"/],
      [{ question: "q", models: [{ id: "demo:concise" }, { id: "demo:concise" }] }, /only once/],
      [{ question: "q", models: [{ id: "demo:concise" }], settings: { concurrency: 0 } }, /concurrency/],
      [{ question: "q", models: [{ id: "demo:concise", params: { temperature: 9 } }] }, /temperature/],
    ];
    for (const [body, message] of cases) {
      const res = await api("/runs", { method: "POST", json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error } = await res.json<{ error: { code: string; message: string } }>();
      expect(error.message).toMatch(message);
    }
    const broken = await api("/runs", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBeTruthy();
    const count = await env.DB.prepare("select count(*) as n from runs where question = 'q'").first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("answers 404 for unknown runs and routes", async () => {
    for (const [method, path] of [
      ["GET", "/runs/nope"],
      ["DELETE", "/runs/nope"],
      ["POST", "/runs/nope/cancel"],
      ["POST", "/runs/nope/evaluate"],
      ["GET", "/runs/nope/export"],
      ["GET", "/nothing-here"],
    ]) {
      const res = await api(path, { method, json: method === "POST" ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });
});
