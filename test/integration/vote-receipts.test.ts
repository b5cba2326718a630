import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { BASE } from "../helpers/runs";
import { castVote, errorOf, readyComparison, vote, withdraw, type VoteBody } from "../helpers/arena";

const A = "openai:receipt-a";
const B = "anthropic:receipt-b";
const TOKEN = "receipt-test-token_0123";

/** The Worker with some settings changed, as a deployment with them would answer. */
async function withSettings(settings: Partial<Env>, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${BASE}/api${path}`, init), { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** HMAC-SHA256 of `text` under `secret`, its first 16 bytes in hex: how the server derives a receipt. */
async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)), 0, 16);
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

const liveRows = async (voteId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM model_votes WHERE vote_id = ?").bind(voteId).first<number>("n"))!;

describe("vote receipts", () => {
  it("come with a vote, derived from its id under the server's secret kept in D1, and again with an idempotent replay, stored nowhere", async () => {
    const id = (await readyComparison([A, B])).comparison.id;
    const headers = { "Idempotency-Key": "receipt-replay-1" };
    const first = await vote(id, "left", headers);
    const replay = await vote(id, "left", headers);
    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const [body, replayed] = [(await first.json()) as VoteBody, (await replay.json()) as VoteBody];
    expect(replayed).toEqual(body);

    const secrets = await env.DB.prepare("SELECT name, value FROM server_secrets").all<{
      name: string;
      value: string;
    }>();
    expect(secrets.results.map((s) => s.name)).toEqual(["signing"]);
    const secret = secrets.results[0].value;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(body.receipt).toBe(await hmacHex(secret, `vote-receipt\n${body.voteId}`));
    // The stored response a replay answers from holds no receipt, and no answer holds the secret.
    const stored = await env.DB.prepare("SELECT response FROM idempotency_keys WHERE key = ?")
      .bind("receipt-replay-1")
      .first<string>("response");
    expect(stored).not.toContain(body.receipt);
    expect(JSON.stringify(body)).not.toContain(secret);
  });

  it("are asked for by a withdrawal: none is a 401, another vote's a 403, each changing nothing; its own withdraws it", async () => {
    const id = (await readyComparison([A, B])).comparison.id;
    const mine = await castVote(id, "left");
    const other = await castVote((await readyComparison([A, B])).comparison.id, "right");

    const none = await withdraw(mine.voteId);
    expect(none.status).toBe(401);
    expect(await errorOf(none)).toEqual({
      code: "receipt_required",
      message:
        "Withdrawing a vote takes its receipt: send the `receipt` the vote was answered with in the X-Vote-Receipt header (the page that cast it keeps it).",
    });
    const wrong = await withdraw(mine.voteId, other.receipt);
    expect(wrong.status).toBe(403);
    expect((await errorOf(wrong)).code).toBe("wrong_receipt");
    const forged = await withdraw(
      mine.voteId,
      mine.receipt.replace(/.$/, (ch) => (ch === "0" ? "1" : "0")),
    );
    expect(forged.status).toBe(403);
    expect(await liveRows(mine.voteId)).toBe(1);

    const own = await withdraw(mine.voteId, mine.receipt);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ voteId: mine.voteId, comparisonId: id, withdrawn: true });
    expect(await liveRows(mine.voteId)).toBe(0);
  });

  it("are not needed by APP_TOKEN's holder, who may withdraw any vote; without the token the withdrawal is refused", async () => {
    const cast = await castVote((await readyComparison([A, B])).comparison.id, "tie");
    const anonymous = await withSettings({ APP_TOKEN: TOKEN }, `/votes/${cast.voteId}`, {
      method: "DELETE",
      headers: { "X-Vote-Receipt": cast.receipt },
    });
    expect(anonymous.status).toBe(401);
    expect(await liveRows(cast.voteId)).toBe(2);
    const holder = await withSettings({ APP_TOKEN: TOKEN }, `/votes/${cast.voteId}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(holder.status).toBe(200);
    expect(await liveRows(cast.voteId)).toBe(0);
  });

  it("are signed with QUORUM_SECRET when it is set, so a receipt made under another secret is refused", async () => {
    const id = (await readyComparison([A, B])).comparison.id;
    const secret = "quorum-secret-for-receipts";
    const res = await withSettings({ QUORUM_SECRET: secret }, `/comparisons/${id}/votes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ choice: "right" }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as VoteBody;
    expect(body.receipt).toBe(await hmacHex(secret, `vote-receipt\n${body.voteId}`));
    expect(JSON.stringify(body)).not.toContain(secret);
    // Without QUORUM_SECRET the server signs with its kept secret: this receipt is not one of its.
    expect((await withdraw(body.voteId, body.receipt)).status).toBe(403);
    expect(
      (
        await withSettings({ QUORUM_SECRET: secret }, `/votes/${body.voteId}`, {
          method: "DELETE",
          headers: { "X-Vote-Receipt": body.receipt },
        })
      ).status,
    ).toBe(200);
  });
});
