/**
 * The vote desk: votes and withdrawals on one comparison, one at a time, with their caps, flags and
 * idempotency decided on a consistent state, written to D1 through the shard's vote writer.
 */
import { finalReason } from "../../arena/archive-policy";
import { namesItself } from "../../arena/identity";
import { findIdempotencyKey, voteRows, withdrawVote } from "../../db/arena-queries";
import { openDb } from "../../db/queries";
import { comparisonPromptRow } from "../../labels/prompt-rows";
import type { Winner } from "../../rating/battle-outcome";
import { SIDES, type VoteChoice, type VoteFlag, winnersOf } from "../../shared/arena";
import { isHidden, revealOf, type VoteRecord, voteView } from "../comparison-record";
import { type Refusal, type RoomResult, refuse } from "../room-result";
import { voteWriterFor } from "../vote-writer";
import { closedRefusal } from "./closed";
import type { ComparisonContext } from "./context";
import { deleteVote, saveVote } from "./storage";

export interface CastVote {
  choice: VoteChoice;
  clientId: string;
  idempotencyKey: string | null;
  minVoteMs: number;
  /** live votes one client may have on this comparison, and all clients together */
  maxPerClient: number;
  maxPerComparison: number;
}

export interface VoteResponse {
  comparisonId: string;
  voteId: string;
  choice: VoteChoice;
  rows: VoteRecord["rows"];
  reveal: ReturnType<typeof revealOf>;
  flags: VoteFlag[];
}

type Cast = RoomResult<{ replayed: boolean; response: VoteResponse }>;

const WINNER_OF: Record<VoteChoice, Winner> = {
  left: "model_a",
  right: "model_b",
  tie: "tie",
  "both-bad": "tie (bothbad)",
};

export class VoteDesk {
  private voting: Promise<unknown> = Promise.resolve();

  /** `onFirstVote` runs once a vote reveals the names (judges may be shown and asked from then on). */
  constructor(
    private readonly ctx: ComparisonContext,
    private readonly onFirstVote: () => Promise<void>,
  ) {}

  vote(cast: CastVote): Promise<Cast> {
    return this.serial(() => this.cast(cast));
  }

  withdraw(voteId: string): Promise<RoomResult<{ voteId: string; status: string }>> {
    return this.serial(() => this.take(voteId));
  }

  /**
   * Votes and withdrawals run one at a time: each awaits D1, which lets other requests into the room, and
   * their checks (caps, duplicates, idempotency) must see every vote before them.
   */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.voting.then(work, work);
    this.voting = run.catch(() => {});
    return run;
  }

  private async cast(cast: CastVote): Promise<Cast> {
    const { ctx } = this;
    const r = ctx.record;
    const db = openDb(ctx.env.DB);
    if (cast.idempotencyKey) {
      const prior = await findIdempotencyKey(db, cast.idempotencyKey);
      if (prior) return this.replay(prior.comparisonId, prior.response as VoteResponse, cast.choice);
    }
    const refused = this.refusal(cast);
    if (refused) return refused;

    const now = Date.now();
    const voteId = crypto.randomUUID();
    const flags = this.flagsFor(cast, now);
    const rows = winnersOf(cast.choice, r.models.left, r.models.right).map((winnerModelId, i) => ({
      id: `${voteId}:${i + 1}`,
      comparisonId: r.id,
      voteId,
      choice: cast.choice,
      winnerModelId,
      createdAt: now,
      flags,
    }));
    const vote: VoteRecord = { voteId, choice: cast.choice, clientId: cast.clientId, flags, createdAt: now, rows };
    const before = { status: r.status, revealedAt: r.revealedAt };
    r.status = "voted";
    r.revealedAt ??= now;
    const response: VoteResponse = {
      comparisonId: r.id,
      voteId,
      choice: cast.choice,
      rows,
      reveal: revealOf(r),
      flags,
    };
    const statusChanged = r.status !== before.status || r.revealedAt !== before.revealedAt;
    try {
      // Through the shard's writer, which commits the votes arriving together in one transaction.
      const written = await voteWriterFor(ctx.env, r.id).write(
        voteRows(r, {
          vote,
          battle: { winner: WINNER_OF[cast.choice], flagged: flags.length > 0, turn: r.turns.length },
          idempotency: cast.idempotencyKey ? { key: cast.idempotencyKey, response } : null,
          statusChanged,
          // The first vote queues the prompt for its labels (the label pass, rooms/label-pass.ts, reads it later).
          prompt:
            before.revealedAt === null
              ? comparisonPromptRow(
                  r.id,
                  r.turns.map((t) => t.prompt),
                  now,
                )
              : null,
        }),
      );
      if (!written.ok) throw new Error(written.error);
    } catch (err) {
      Object.assign(r, before);
      // Another request took the same key a moment ago (on another comparison: this room serialises its own).
      const prior = cast.idempotencyKey ? await findIdempotencyKey(db, cast.idempotencyKey) : null;
      if (prior) return this.replay(prior.comparisonId, prior.response as VoteResponse, cast.choice);
      throw err;
    }
    r.votes.push(vote);
    saveVote(ctx.kv, vote);
    if (statusChanged) ctx.save();
    ctx.emit({ type: "vote.recorded", vote: voteView(vote), reveal: response.reveal, status: r.status });
    if (before.revealedAt === null) await this.onFirstVote();
    return { ok: true, replayed: false, response };
  }

  /** Why this vote can't be taken now, if it can't. */
  private refusal(cast: CastVote): Refusal | null {
    const r = this.ctx.record;
    const closed = closedRefusal(this.ctx.env, r);
    if (closed) return closed;
    if (r.status === "answering" || r.status === "pending")
      return refuse("not_ready", "Both sides must finish answering before you vote. Wait for the latest turn to end.");
    if (r.status === "failed")
      return refuse(
        "side_failed",
        "A side failed in the latest turn, so there is nothing fair to vote on. Retry that side, or start a new round.",
      );
    // Seed 000 allows more than one vote on a comparison; these caps only stop stuffing.
    if (r.votes.filter((v) => v.clientId === cast.clientId).length >= cast.maxPerClient)
      return refuse(
        "vote_limit",
        `You already have ${cast.maxPerClient} votes on this comparison. Withdraw one to vote again, or start a new round.`,
        429,
      );
    if (r.votes.length >= cast.maxPerComparison)
      return refuse(
        "vote_limit",
        `This comparison already has ${cast.maxPerComparison} votes, the most it takes. Start a new round.`,
        429,
      );
    return null;
  }

  private async take(voteId: string): Promise<RoomResult<{ voteId: string; status: string }>> {
    const { ctx } = this;
    const r = ctx.record;
    const vote = r.votes.find((v) => v.voteId === voteId);
    if (!vote)
      return refuse("not_found", "No vote with this id on this comparison; it may have been withdrawn already.", 404);
    const final = finalReason(ctx.env, vote.createdAt, "This vote");
    if (final) return refuse("final", final);
    r.votes = r.votes.filter((v) => v !== vote);
    if (!r.votes.length) r.status = "ready";
    await withdrawVote(openDb(ctx.env.DB), r, voteId);
    deleteVote(ctx.kv, vote);
    ctx.save();
    ctx.emit({ type: "vote.withdrawn", voteId, status: r.status });
    return { ok: true, voteId, status: r.status };
  }

  private flagsFor(cast: CastVote, now: number): VoteFlag[] {
    const r = this.ctx.record;
    const flags: VoteFlag[] = [];
    if (r.bothAnsweredAt !== null && now - r.bothAnsweredAt < cast.minVoteMs) flags.push("too_fast");
    if (r.votes.some((v) => v.clientId === cast.clientId)) flags.push("duplicate");
    if (SIDES.some((side) => r.turns.some((t) => namesItself(t[side].text, r.models[side]))))
      flags.push("identity_leak");
    // Names once shown stay shown (a withdrawal doesn't re-blind), to whoever has the comparison open: every
    // vote after the first on a blind comparison is cast knowing who is who, whoever casts it.
    if (!isHidden(r)) flags.push("revealed");
    return flags;
  }

  private replay(comparisonId: string, prior: VoteResponse, choice: VoteChoice): Cast {
    if (comparisonId !== this.ctx.record.id || prior.choice !== choice)
      return refuse(
        "idempotency_conflict",
        "This Idempotency-Key was already used for a different vote. Use a new key for a new vote.",
      );
    return { ok: true, replayed: true, response: prior };
  }
}
