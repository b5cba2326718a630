/**
 * A Worker of the bench's own for bench/d1-rate.ts: it writes votes into one local D1 database through Quorum's
 * own query code (insertComparison, recordVote, voteStatements from worker/db/arena-queries.ts), so every vote
 * is the same transaction a ComparisonRoom commits (model_votes rows, the battle, the triggers' counters), and
 * nothing else runs: no route, no room, no rate limiter. Bound to the same D1 database as Quorum's Worker.
 */
import { insertComparison, recordVote, voteRows, voteStatements, type VoteWrite } from "../../worker/db/arena-queries";
import { openDb } from "../../worker/db/queries";
import type { ComparisonRecord, VoteRecord } from "../../worker/db/records";
import { winnersOf, type VoteChoice } from "../../worker/shared/arena";

interface Env {
  DB: D1Database;
}

const MODELS = Array.from({ length: 50 }, (_, i) => `bench:model-${String(i).padStart(2, "0")}`);
const CHOICES: VoteChoice[] = ["left", "right", "tie", "both-bad"];
const WINNER = { left: "model_a", right: "model_b", tie: "tie", "both-bad": "tie (bothbad)" } as const;
const ANSWER =
  "A reply of a few sentences, as a side of a comparison might give: short, plain, nothing to style-count.";

/** Comparisons made by /setup, kept in this isolate: votes are spread over them round-robin. */
let comparisons: ComparisonRecord[] = [];
let counter = 0;

function comparison(i: number, hot: boolean): ComparisonRecord {
  const a = hot ? 0 : i % MODELS.length;
  const b = hot ? 1 : (a + 1 + (Math.floor(i / MODELS.length) % (MODELS.length - 1))) % MODELS.length;
  const now = Date.now();
  return {
    id: `d1rate-${crypto.randomUUID()}`,
    createdAt: now,
    category: null,
    blind: true,
    mode: "sampled",
    modeNote: null,
    params: {},
    models: { left: MODELS[a], right: MODELS[b] },
    status: "ready",
    turns: [{ turn: 1, prompt: "Bench prompt", left: side(), right: side() }],
    bothAnsweredAt: now,
    revealedAt: null,
    votes: [],
    maxTurns: 5,
    timeoutMs: 60_000,
    autoJudges: [],
    judges: [],
  } as unknown as ComparisonRecord;
}

function side() {
  return {
    status: "done",
    text: ANSWER,
    latencyMs: 100,
    tokensIn: 10,
    tokensOut: 30,
    error: null,
    errorKind: null,
    truncated: false,
    attempts: 1,
  };
}

/** The next vote as the room would build it (castVote), and the record as it stands after it. */
function nextVote(): { r: ComparisonRecord; write: VoteWrite } {
  const n = counter++;
  const r = comparisons[n % comparisons.length];
  const choice = CHOICES[n % CHOICES.length];
  const now = Date.now();
  const voteId = crypto.randomUUID();
  const rows = winnersOf(choice, r.models.left, r.models.right).map((winnerModelId, i) => ({
    id: `${voteId}:${i + 1}`,
    comparisonId: r.id,
    voteId,
    choice,
    winnerModelId,
    createdAt: now,
    flags: [],
  }));
  const vote = {
    voteId,
    choice,
    clientId: `client:d1rate-${n % 64}`,
    flags: [],
    createdAt: now,
    rows,
  } as unknown as VoteRecord;
  const statusChanged = r.revealedAt === null;
  r.status = "voted";
  r.revealedAt ??= now;
  return {
    r,
    write: { vote, battle: { winner: WINNER[choice], flagged: false, turn: 1 }, idempotency: null, statusChanged },
  };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const q = (name: string, fallback: number) => Number(url.searchParams.get(name) ?? fallback);
    const db = openDb(env.DB);
    if (url.pathname === "/health") return new Response("ok");
    // The database's size in bytes, as D1 reports it after a statement (meta.size_after).
    if (url.pathname === "/size")
      return Response.json({ bytes: (await env.DB.prepare("SELECT 1").run()).meta.size_after });
    if (url.pathname === "/setup") {
      const hot = url.searchParams.get("hot") === "1";
      comparisons = Array.from({ length: q("comparisons", 200) }, (_, i) => comparison(i, hot));
      for (const r of comparisons) await insertComparison(db, r);
      return Response.json({ comparisons: comparisons.length });
    }
    if (url.pathname === "/write") {
      // sequential: one transaction per vote, one after the other (what one ComparisonRoom does);
      // concurrent: `loops` such sequences at once (many rooms, one D1); batched: `batch` votes per transaction.
      const votes = q("votes", 1000);
      const loops = q("loops", 1);
      const batch = q("batch", 1);
      let statements = 0;
      let left = votes;
      const t = Date.now();
      await Promise.all(
        Array.from({ length: loops }, async () => {
          while (left > 0) {
            const take = Math.min(batch, left);
            left -= take;
            if (take === 1) {
              const { r, write } = nextVote();
              statements += write.vote.rows.length + (write.statusChanged ? 2 : 1);
              await recordVote(db, r, write);
            } else {
              const all = Array.from({ length: take }, () => nextVote()).flatMap(({ r, write }) =>
                voteStatements(env.DB, voteRows(r, write)),
              );
              statements += all.length;
              await env.DB.batch(all);
            }
          }
        }),
      );
      return Response.json({ votes, ms: Date.now() - t, statements });
    }
    return new Response("not found", { status: 404 });
  },
};
