import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { hashToken } from "../../worker/api/shares";
import worker from "../../worker/index";
import { comparisonEvent, runEvent } from "../../worker/shared/events";
import { tokenProtocol } from "../../worker/shared/socket-protocol";
import { castVote, errorOf, getComparison, readyComparison } from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { BASE, createRun, finished, getRun } from "../helpers/runs";
import { openEventSocket } from "../helpers/sockets";
import { releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");
const APP_TOKEN = "share-test-token_42";
const DEMO = [{ id: "demo:concise" }, { id: "demo:thorough" }];

const share = (kind: "runs" | "comparisons", id: string) => ok(client[kind][":id"].share.$post({ param: { id } }));

async function sharesOf(kind: "runs" | "comparisons", id: string) {
  return (await ok(client[kind][":id"].shares.$get({ param: { id } }))).shares;
}

const shared = (token: string) => client.shared[":token"].$get({ param: { token } });

async function finishedRun(question: string): Promise<string> {
  const id = await createRun({ question, models: DEMO });
  await finished(id);
  return id;
}

/** The Worker as deployed, reached at `url`, with APP_TOKEN set to `appToken` ("" for none). */
async function deployed(url: string, init: RequestInit, appToken: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, init), { ...env, APP_TOKEN: appToken, QUORUM_LISTEN: "" }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Every word that would give a side away: ids, names, makers. */
function mentionsAny(payload: unknown, words: string[]): string[] {
  const text = JSON.stringify(payload).toLowerCase();
  return words.filter((w) => text.includes(w.toLowerCase()));
}

describe("making and revoking share links", () => {
  it("gives a 256-bit token once, keeps only its hash, lists links without tokens, and revokes one", async () => {
    const id = await finishedRun("Share me");
    const before = Date.now();
    const first = await share("runs", id);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.url).toBe(`${BASE}/shared/${first.token}`);
    expect(first).toMatchObject({ kind: "run", itemId: id });
    expect(first.createdAt).toBeGreaterThanOrEqual(before);
    expect(first.createdAt).toBeLessThanOrEqual(Date.now());
    const second = await share("runs", id);
    expect(second.token).not.toBe(first.token);

    const rows = await env.DB.prepare("SELECT * FROM shares WHERE item_id = ? ORDER BY created_at, id")
      .bind(id)
      .all<Record<string, unknown>>();
    expect(rows.results.map((r) => r.token_hash).sort()).toEqual(
      [await hashToken(first.token), await hashToken(second.token)].sort(),
    );
    expect(JSON.stringify(rows.results)).not.toContain(first.token);
    expect(JSON.stringify(rows.results)).not.toContain(second.token);

    const listed = await sharesOf("runs", id);
    expect(listed.map((s) => s.id).sort()).toEqual([first.id, second.id].sort());
    expect(listed.find((s) => s.id === first.id)).toEqual({
      id: first.id,
      kind: "run",
      itemId: id,
      createdAt: first.createdAt,
    });
    expect(JSON.stringify(listed)).not.toContain(first.token.slice(0, 8));

    const revoked = await client.shares[":shareId"].$delete({ param: { shareId: first.id } });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({
      id: first.id,
      kind: "run",
      itemId: id,
      createdAt: first.createdAt,
      revoked: true,
    });
    expect((await sharesOf("runs", id)).map((s) => s.id)).toEqual([second.id]);
    // revoking it again is a 404 that says it was already revoked; so is an unknown link
    const again = await client.shares[":shareId"].$delete({ param: { shareId: first.id } });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({
      error: {
        code: "not_found",
        message:
          "This share link was already revoked; it opens nothing. Make a new one with Share if you need it again.",
      },
    });
    const unknown = await client.shares[":shareId"].$delete({ param: { shareId: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe("not_found");

    const dead = await shared(first.token);
    expect(dead.status).toBe(404);
    expect(await errorOf(dead)).toEqual({ code: "not_found", message: "Share link not found." });
    expect((await shared(second.token)).status).toBe(200);
  });

  it("closes the sockets already open through a link when it is revoked, and only those", async () => {
    const id = await finishedRun("Watch, then stop");
    const [kept, revoked] = [await share("runs", id), await share("runs", id)];
    const open = async (token: string) => {
      const res = await SELF.fetch(`${BASE}/api/shared/${token}/ws`, { headers: { Upgrade: "websocket" } });
      const ws = res.webSocket!;
      const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve(e.code)));
      const pong = new Promise<string>((resolve) =>
        ws.addEventListener("message", (m) => m.data === "pong" && resolve("pong")),
      );
      ws.accept();
      return { ws, closed, pong };
    };
    const [keptSocket, revokedSocket] = [await open(kept.token), await open(revoked.token)];
    expect((await client.shares[":shareId"].$delete({ param: { shareId: revoked.id } })).status).toBe(200);
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("still open"), 5_000));
    expect(await Promise.race([revokedSocket.closed, timeout])).toBe(4404);
    // the other link's socket is still served: the room answers its ping
    keptSocket.ws.send("ping");
    expect(await Promise.race([keptSocket.pong, keptSocket.closed.then(() => "closed"), timeout])).toBe("pong");
    keptSocket.ws.close(1000, "done");
  });

  it("refuses to share or list what does not exist", async () => {
    for (const kind of ["runs", "comparisons"] as const) {
      const param = { id: crypto.randomUUID() };
      const res = await client[kind][":id"].share.$post({ param });
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe("not_found");
      expect((await client[kind][":id"].shares.$get({ param })).status).toBe(404);
    }
  });

  it("answers an unknown, malformed or revoked token with the same 404", async () => {
    const id = await finishedRun("Guess my link");
    const { token } = await share("runs", id);
    const lookalike = (token[0] === "A" ? "B" : "A") + token.slice(1);
    for (const guess of [lookalike, "x", `${token}x`, token.slice(0, 42), "A".repeat(43)]) {
      const res = await shared(guess);
      expect(res.status, guess).toBe(404);
      expect(await errorOf(res)).toEqual({ code: "not_found", message: "Share link not found." });
    }
    const ws = await SELF.fetch(`${BASE}/api/shared/${lookalike}/ws`, { headers: { Upgrade: "websocket" } });
    expect(ws.status).toBe(404);
  });
});

describe("what a share link shows", () => {
  it("answers exactly what the run's own route answers, and nothing about its links", async () => {
    const id = await finishedRun("Which answer is best?");
    const created = await share("runs", id);
    const res = await shared(created.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const body = (await res.json()) as { kind: string; item: unknown };
    const own = await getRun(id);
    expect(own.aggregation?.finalRanking.length).toBe(2);
    expect(body).toEqual({ kind: "run", item: own });
    const text = JSON.stringify(body);
    expect(text).not.toContain(created.id);
    expect(text).not.toContain(await hashToken(created.token));
  });

  it("streams the run's live events over the shared socket, snapshot first, and resumes after ?since=", async () => {
    await scriptModel(stub, "share-held", [{ holdKey: "share-held", text: "Held until the test lets it go." }]);
    const id = await createRun({
      question: "Live over a link?",
      models: [{ id: "openai:share-held" }],
      settings: { autoEvaluate: false },
    });
    await waitForHeld(stub, "share-held");
    const { token } = await share("runs", id);
    const socket = await openEventSocket(`/api/shared/${token}/ws`, runEvent);
    try {
      const snapshot = await socket.waitFor("snapshot");
      expect(snapshot.state.run.id).toBe(id);
      expect(snapshot.state.run.status).toBe("answering");
      expect(await releaseHold(stub, "share-held")).toBe(1);
      const completed = await socket.waitFor("answer.completed");
      expect(completed.text).toBe("Held until the test lets it go.");
      await socket.waitFor("run.completed");
    } finally {
      socket.close();
    }
    const snapshotSeq = socket.events[0].seq;
    const resumed = await openEventSocket(`/api/shared/${token}/ws`, runEvent, snapshotSeq);
    try {
      const end = await resumed.waitFor("run.completed");
      expect(resumed.events[0].type).not.toBe("snapshot");
      expect(resumed.events[0].seq).toBe(snapshotSeq + 1);
      expect(end.seq).toBe(socket.events.find((e) => e.type === "run.completed")!.seq);
    } finally {
      resumed.close();
    }
  });

  it("keeps a comparison shared before the vote blind, on the API and the socket, and reveals it after", async () => {
    await scriptModel(stub, "shared-secret-gpt", [
      { text: "Recursion is a function calling itself on a smaller input." },
    ]);
    await scriptModel(stub, "shared-secret-claude", [
      { text: "A recursive definition refers to itself, shrinking the problem." },
    ]);
    const giveaways = ["shared-secret-gpt", "shared-secret-claude", "openai", "anthropic", "claude", "gpt"];
    const ready = await readyComparison(["openai:shared-secret-gpt", "anthropic:shared-secret-claude"]);
    const { token } = await share("comparisons", ready.comparison.id);

    const blind = (await (await shared(token)).json()) as { kind: string; item: { reveal: unknown } };
    expect(blind).toEqual({ kind: "comparison", item: await getComparison(ready.comparison.id) });
    expect(blind.item.reveal).toBeNull();
    expect(mentionsAny(blind, giveaways)).toEqual([]);

    const socket = await openEventSocket(`/api/shared/${token}/ws`, comparisonEvent);
    try {
      const snapshot = await socket.waitFor("snapshot");
      expect(snapshot.state.turns[0].left.text.length).toBeGreaterThan(20);
      expect(mentionsAny(socket.events, giveaways)).toEqual([]);
      const voted = await castVote(ready.comparison.id, "left");
      const recorded = await socket.waitFor("vote.recorded");
      expect(recorded.reveal).toEqual(voted.reveal);
    } finally {
      socket.close();
    }
    const after = (await (await shared(token)).json()) as { item: { reveal: unknown } };
    expect(after.item).toEqual(await getComparison(ready.comparison.id));
    expect(after.item.reveal).not.toBeNull();
  });

  it("dies with its run: deleting the run turns the link into a 404 and drops its rows", async () => {
    const id = await finishedRun("Delete me");
    const { token } = await share("runs", id);
    expect((await shared(token)).status).toBe(200);
    expect((await client.runs[":id"].$delete({ param: { id } })).status).toBe(200);
    const res = await shared(token);
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ code: "not_found", message: "Share link not found." });
    expect((await SELF.fetch(`${BASE}/api/shared/${token}/ws`, { headers: { Upgrade: "websocket" } })).status).toBe(
      404,
    );
    const left = await env.DB.prepare("SELECT count(*) AS n FROM shares WHERE item_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("dies with its comparison too (the table's trigger)", async () => {
    const { id } = (await readyComparison(["demo:concise", "demo:thorough"])).comparison;
    const { token } = await share("comparisons", id);
    expect((await shared(token)).status).toBe(200);
    await env.DB.batch([
      env.DB.prepare("DELETE FROM messages WHERE comparison_id = ?").bind(id),
      env.DB.prepare("DELETE FROM model_votes WHERE comparison_id = ?").bind(id),
      env.DB.prepare("DELETE FROM comparisons WHERE id = ?").bind(id),
    ]);
    expect((await shared(token)).status).toBe(404);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM shares WHERE item_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});

describe("who may open a share link", () => {
  it("with APP_TOKEN set, the link's two routes need no token and every other route still does", async () => {
    const id = await finishedRun("Behind a token");
    const created = await share("runs", id);
    const host = "https://quorum.example.com";
    const open = await deployed(`${host}/api/shared/${created.token}`, {}, APP_TOKEN);
    expect(open.status).toBe(200);
    expect(((await open.json()) as { item: unknown }).item).toEqual(await getRun(id));

    const ws = await deployed(
      `${host}/api/shared/${created.token}/ws`,
      { headers: { Upgrade: "websocket" } },
      APP_TOKEN,
    );
    expect(ws.status).toBe(101);
    ws.webSocket!.accept();
    ws.webSocket!.close(1000, "done");

    const guarded: [string, RequestInit][] = [
      [`/api/runs/${id}`, {}],
      [`/api/runs/${id}/shares`, {}],
      [`/api/runs/${id}/share`, { method: "POST" }],
      [`/api/shares/${created.id}`, { method: "DELETE" }],
      [`/api/runs/${id}/ws`, { headers: { Upgrade: "websocket" } }],
      [`/api/runs/${id}/export?format=json`, {}],
      [`/api/shared/${created.token}`, { method: "POST" }],
      [`/api/shared/${created.token}/export`, {}],
      [`/api/shared/${created.token}%2F..%2F..%2Fruns`, {}],
      ["/api/shared/", {}],
      ["/api/runs", {}],
      ["/api/health", {}],
    ];
    for (const [path, init] of guarded) {
      const res = await deployed(`${host}${path}`, init, APP_TOKEN);
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(401);
      expect((await errorOf(res)).code).toBe("unauthorized");
    }
    // a malformed token is a dead link there too, not a question of access
    const malformed = await deployed(`${host}/api/shared/${created.token}${created.token}`, {}, APP_TOKEN);
    expect(malformed.status).toBe(404);
    expect((await errorOf(malformed)).code).toBe("not_found");
    // the token still opens them, and the link's socket accepts the token's subprotocol like any socket
    const withToken = await deployed(
      `${host}/api/runs/${id}/shares`,
      { headers: { Authorization: `Bearer ${APP_TOKEN}` } },
      APP_TOKEN,
    );
    expect(withToken.status).toBe(200);
    const offered = await deployed(
      `${host}/api/shared/${created.token}/ws`,
      { headers: { Upgrade: "websocket", "Sec-WebSocket-Protocol": `quorum, ${tokenProtocol("whatever")}` } },
      APP_TOKEN,
    );
    expect(offered.status).toBe(101);
    expect(offered.headers.get("Sec-WebSocket-Protocol")).toBe("quorum");
    offered.webSocket!.accept();
    offered.webSocket!.close(1000, "done");
  });

  it("from another machine without APP_TOKEN, the link works and everything else is refused", async () => {
    const id = await finishedRun("Reached from afar");
    const { token } = await share("runs", id);
    const host = "https://quorum.example.com";
    const open = await deployed(`${host}/api/shared/${token}`, {}, "");
    expect(open.status).toBe(200);
    expect(((await open.json()) as { kind: string }).kind).toBe("run");
    const ws = await deployed(`${host}/api/shared/${token}/ws`, { headers: { Upgrade: "websocket" } }, "");
    expect(ws.status).toBe(101);
    ws.webSocket!.accept();
    ws.webSocket!.close(1000, "done");

    for (const [path, init] of [
      [`/api/runs/${id}`, {}],
      [`/api/runs/${id}/share`, { method: "POST" }],
      [`/api/runs/${id}/shares`, {}],
      [`/api/runs/${id}/ws`, { headers: { Upgrade: "websocket" } }],
      ["/api/models", {}],
    ] as [string, RequestInit][]) {
      const res = await deployed(`${host}${path}`, init, "");
      expect(res.status, path).toBe(403);
      expect((await errorOf(res)).code).toBe("app_token_required");
    }
  });

  it("still refuses the link's socket from another site's page", async () => {
    const id = await finishedRun("Cross-site");
    const { token } = await share("runs", id);
    const res = await deployed(
      `https://quorum.example.com/api/shared/${token}/ws`,
      { headers: { Upgrade: "websocket", Origin: "https://evil.example" } },
      APP_TOKEN,
    );
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe("cross_origin");
  });
});
