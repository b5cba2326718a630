/**
 * ComparisonRoom: one Durable Object per arena comparison. Both sides get the same messages and
 * settings, in parallel, streamed; every turn is persisted before it is announced; votes on one
 * comparison are serialised here, so flags and idempotency are decided on a consistent state.
 */

import { closedReason, finalReason } from "../arena/archive-policy";
import { namesItself } from "../arena/identity";
import {
  findIdempotencyKey,
  insertComparison,
  saveJudgeVerdict,
  saveSide,
  saveTurnStart,
  voteRows,
  withdrawVote,
} from "../db/arena-queries";
import { openDb } from "../db/queries";
import { insertSpendEntry, settleHoldsWrite } from "../db/spend-queries";
import { parseJudgeOutput } from "../judges/parse";
import { buildJudgeRequest, type JudgedTurn } from "../judges/prompt";
import { combineOrders } from "../judges/verdict";
import { costOf } from "../providers/pricing";
import type { ChatMessage } from "../providers/types";
import type { Winner } from "../rating/battle-outcome";
import {
  type ArenaParams,
  type ComparisonDetail,
  type ComparisonMode,
  SIDES,
  type Side,
  type VoteChoice,
  type VoteFlag,
  winnersOf,
} from "../shared/arena";
import type { ComparisonEventBody } from "../shared/events";
import { addRedactions, type Redactions, redactionCount } from "../shared/redact";
import {
  type ComparisonRecord,
  hiddenError,
  isHidden,
  type JudgeRecord,
  judgeView,
  newSide,
  panelOf,
  revealOf,
  type TurnRecord,
  toComparisonDetail,
  type VoteRecord,
  voteView,
} from "./comparison-record";
import { logCall } from "./log";
import { Room } from "./room";
import { streamAndSettle } from "./stream-and-settle";
import { askStructured, type Usage } from "./structured-call";
import { voteWriterFor } from "./vote-writer";

export interface StartComparison {
  id: string;
  prompt: string;
  models: { left: string; right: string };
  category: string | null;
  blind: boolean;
  mode: ComparisonMode;
  modeNote: string | null;
  params: ArenaParams;
  maxTurns: number;
  timeoutMs: number;
  autoJudges: string[];
  /** the money set aside for the comparison's calls (api/spend.ts) */
  holdId?: string;
}

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

export type Refusal = { ok: false; status: 404 | 409 | 429; code: string; message: string };
export type Outcome<T> = ({ ok: true } & T) | Refusal;

const RECORD_KEY = "record";
const VOTE_PREFIX = "vote:";
/** Keys sort as the votes were cast. */
const voteKey = (v: VoteRecord) => `${VOTE_PREFIX}${String(v.createdAt).padStart(15, "0")}:${v.voteId}`;

const refuse = (code: string, message: string, status: Refusal["status"] = 409): Refusal => ({
  ok: false,
  status,
  code,
  message,
});
const missing = () => refuse("not_found", "No comparison with this id.", 404);

const SELF_JUDGE = "This judge is one of the two sides, and a model doesn't judge its own answer, so it was left out.";

const WINNER_OF: Record<VoteChoice, Winner> = {
  left: "model_a",
  right: "model_b",
  tie: "tie",
  "both-bad": "tie (bothbad)",
};

export class ComparisonRoom extends Room<ComparisonEventBody> {
  private record: ComparisonRecord | null = null;
  private voting: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const stored = ctx.storage.kv.get<ComparisonRecord>(RECORD_KEY);
      this.record = stored ? this.withVotes(stored) : null;
      // A new instance with a side still to answer means the one answering it is gone: resume now.
      if (this.hasWork()) await ctx.storage.setAlarm(Date.now());
    });
  }

  // ---- RPC, called by the Worker's routes ----

  async start(init: StartComparison): Promise<Outcome<{ id: string; status: string }>> {
    if (this.record) return { ok: true, id: this.record.id, status: this.record.status };
    const { holdId, ...rest } = init;
    const record: ComparisonRecord = {
      ...rest,
      holds: holdId ? [holdId] : [],
      createdAt: Date.now(),
      status: "answering",
      turns: [{ turn: 1, prompt: init.prompt, left: newSide(), right: newSide() }],
      bothAnsweredAt: null,
      revealedAt: null,
      votes: [],
      judges: [],
      // Its D1 row is written by the first step, while both sides are already being asked (see `list`).
      unlisted: true,
    };
    this.record = record;
    this.save();
    this.startWork();
    return { ok: true, id: record.id, status: record.status };
  }

  async detail(): Promise<ComparisonDetail | null> {
    return this.record && toComparisonDetail(this.record);
  }

  /** The next turn, sent to both sides with each side's own history. */
  async sendMessage(
    content: string,
    redactions: Redactions = {},
    holdId?: string,
  ): Promise<Outcome<{ id: string; status: string; turn: number }>> {
    const r = this.record;
    if (!r) return missing();
    const closed = this.closed();
    if (closed) return closed;
    if (r.revealedAt !== null)
      return refuse(
        "voted",
        "This comparison has a vote, so it takes no new turns. Start a new round to keep chatting.",
      );
    if (r.status !== "ready")
      return refuse(
        "not_ready",
        "Both sides must finish the current turn before the next one; retry a failed side first.",
      );
    if (r.turns.length >= r.maxTurns)
      return refuse(
        "too_many_turns",
        `This comparison has reached its ${r.maxTurns} turns. Vote, or start a new round.`,
      );
    const turn: TurnRecord = { turn: r.turns.length + 1, prompt: content, left: newSide(), right: newSide() };
    r.turns.push(turn);
    // Judges compare whole conversations: a new turn makes any verdict so far stale (none is written before a vote).
    r.judges = [];
    if (redactionCount(redactions))
      r.params = { ...r.params, redactions: addRedactions(r.params.redactions ?? {}, redactions) };
    r.status = "answering";
    r.bothAnsweredAt = null;
    this.takeHold(holdId);
    this.save();
    await saveTurnStart(openDb(this.env.DB), r, turn.turn, content);
    this.emit({ type: "turn.started", turn: turn.turn, prompt: content });
    this.emit({ type: "comparison.status", status: r.status });
    this.startWork();
    return { ok: true, id: r.id, status: r.status, turn: turn.turn };
  }

  /** Asks a side that failed in the latest turn again. */
  async retry(holdId?: string): Promise<Outcome<{ id: string; status: string }>> {
    const r = this.record;
    if (!r) return missing();
    const closed = this.closed();
    if (closed) return closed;
    const turn = r.turns.at(-1)!;
    const failed = SIDES.filter((side) => turn[side].status === "failed");
    if (!failed.length)
      return refuse("nothing_to_retry", "No side of the latest turn failed, so there is nothing to retry.");
    for (const side of failed) turn[side] = newSide();
    r.status = "answering";
    this.takeHold(holdId);
    this.save();
    this.emit({ type: "comparison.status", status: r.status });
    this.startWork();
    return { ok: true, id: r.id, status: r.status };
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

  async vote(cast: CastVote): Promise<Outcome<{ replayed: boolean; response: VoteResponse }>> {
    return this.serial(() => this.castVote(cast));
  }

  private async castVote(cast: CastVote): Promise<Outcome<{ replayed: boolean; response: VoteResponse }>> {
    const r = this.record;
    if (!r) return missing();
    const db = openDb(this.env.DB);
    if (cast.idempotencyKey) {
      const prior = await findIdempotencyKey(db, cast.idempotencyKey);
      if (prior) return this.replay(prior.comparisonId, prior.response as VoteResponse, cast.choice);
    }
    const closed = this.closed();
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
      await voteWriterFor(this.env, r.id).write(
        voteRows(r, {
          vote,
          battle: { winner: WINNER_OF[cast.choice], flagged: flags.length > 0, turn: r.turns.length },
          idempotency: cast.idempotencyKey ? { key: cast.idempotencyKey, response } : null,
          statusChanged,
        }),
      );
    } catch (err) {
      Object.assign(r, before);
      // Another request took the same key a moment ago (on another comparison: this room serialises its own).
      const prior = cast.idempotencyKey ? await findIdempotencyKey(db, cast.idempotencyKey) : null;
      if (prior) return this.replay(prior.comparisonId, prior.response as VoteResponse, cast.choice);
      throw err;
    }
    r.votes.push(vote);
    this.saveVote(vote);
    if (statusChanged) this.save();
    this.emit({ type: "vote.recorded", vote: voteView(vote), reveal: response.reveal, status: r.status });
    if (before.revealedAt === null) await this.afterFirstVote();
    return { ok: true, replayed: false, response };
  }

  /**
   * Asks judges to compare the two sides. While names are hidden every judge is taken alike and waits for the
   * first vote, so neither the answer nor the spend says whether a judge is one of the sides; one that is is
   * left out only then (skipSelfJudges). Verdicts stay hidden until the first vote.
   */
  async requestJudges(judges: string[], holdId?: string): Promise<Outcome<{ accepted: true }>> {
    const r = this.record;
    if (!r) return missing();
    const closed = this.closed();
    if (closed) return closed;
    if (r.status !== "ready" && r.status !== "voted")
      return refuse("not_ready", "Both sides must finish answering before judges can compare them.");
    // Set aside in full even when a judge is one of the sides and is left out, so the figures don't say so.
    this.takeHold(holdId);
    this.save();
    await this.addJudges(judges);
    if (!this.hasWork()) await this.settleHolds();
    return { ok: true, accepted: true };
  }

  async withdraw(voteId: string): Promise<Outcome<{ voteId: string; status: string }>> {
    return this.serial(() => this.withdrawVote(voteId));
  }

  private async withdrawVote(voteId: string): Promise<Outcome<{ voteId: string; status: string }>> {
    const r = this.record;
    if (!r) return missing();
    const vote = r.votes.find((v) => v.voteId === voteId);
    if (!vote)
      return refuse("not_found", "No vote with this id on this comparison; it may have been withdrawn already.", 404);
    const final = finalReason(this.env, vote.createdAt, "This vote");
    if (final) return refuse("final", final);
    r.votes = r.votes.filter((v) => v !== vote);
    if (!r.votes.length) r.status = "ready";
    await withdrawVote(openDb(this.env.DB), r, voteId);
    this.ctx.storage.kv.delete(voteKey(vote));
    this.save();
    this.emit({ type: "vote.withdrawn", voteId, status: r.status });
    return { ok: true, voteId, status: r.status };
  }

  // ---- the work: one turn's two sides per alarm ----

  protected exists() {
    return this.record !== null;
  }

  protected snapshot() {
    return toComparisonDetail(this.record!);
  }

  protected hasWork() {
    return this.record?.unlisted === true || this.sidesToAnswer().length > 0 || this.judgesToAsk().length > 0;
  }

  private sidesToAnswer(): Side[] {
    const turn = this.record?.turns.at(-1);
    return turn ? SIDES.filter((side) => turn[side].status === "pending" || turn[side].status === "streaming") : [];
  }

  /** Judges of a hidden comparison wait for its first vote (requestJudges). */
  private judgesToAsk(): JudgeRecord[] {
    const r = this.record;
    if (!r || isHidden(r)) return [];
    return r.judges.filter((j) => j.status === "pending" || j.status === "running");
  }

  /** Both sides answer at once, then the judges at once: a judge asks twice in turn, and may ask each twice (invalid output). */
  protected stepBudgetMs() {
    const r = this.record!;
    return (this.sidesToAnswer().length ? r.timeoutMs : 0) + (this.judgesToAsk().length ? 4 * r.timeoutMs : 0);
  }

  /** The watchdog gave up: a side still answering fails with `reason` (it names no model, so it shows while blind), and so does a judge. */
  protected async stopStuck(reason: string) {
    const r = this.record!;
    const turn = r.turns.at(-1)!;
    await this.list();
    for (const side of this.sidesToAnswer()) {
      const s = turn[side];
      Object.assign(s, { status: "failed", error: reason, errorKind: "watchdog", truncated: s.text.trim().length > 0 });
      const settled = this.settle(turn);
      this.save();
      await saveSide(openDb(this.env.DB), r, turn.turn, side, s);
      this.emit({
        type: "side.failed",
        side,
        turn: turn.turn,
        error: reason,
        text: s.text,
        latencyMs: s.latencyMs ?? 0,
      });
      if (settled !== "answering") this.emit({ type: "comparison.status", status: settled });
    }
    for (const j of this.judgesToAsk()) {
      Object.assign(j, { status: "failed", error: reason });
      this.save();
      if (r.revealedAt !== null) await this.announceJudge(j);
    }
    await this.settleHolds();
    await this.ctx.storage.deleteAlarm();
  }

  protected async step(generation: number) {
    const r = this.record!;
    const turn = r.turns.at(-1)!;
    const listed = this.list();
    // Every side runs to its end before a failure counts, so a step that fails leaves no call behind.
    const ended = await Promise.allSettled([
      ...this.sidesToAnswer().map((side) => this.answerSide(generation, turn, side, listed)),
      listed,
    ]);
    const failed = ended.find((e) => e.status === "rejected");
    if (failed) throw failed.reason;
    if (this.current(generation)) await Promise.all(this.judgesToAsk().map((j) => this.askJudge(generation, j)));
    if (this.current(generation) && !this.hasWork()) {
      await this.settleHolds();
      await this.ctx.storage.deleteAlarm();
    }
  }

  /** Money set aside for a request this room accepted: settled once the work it asked for has ended. */
  private takeHold(holdId: string | undefined) {
    if (holdId) this.record!.holds = [...(this.record!.holds ?? []), holdId];
  }

  /**
   * The work set aside for has ended: its calls' rows count from now on (a blind comparison's once it is
   * voted on). Automatic judges, and judges asked while names are hidden, are asked after the first vote, so
   * until then their part stays set aside.
   */
  private async settleHolds() {
    const r = this.record!;
    const ids = [...(r.holds ?? [])];
    const judgesWaiting =
      r.revealedAt === null && (r.autoJudges.length > 0 || r.judges.some((j) => j.status === "pending"));
    if (!ids.length || judgesWaiting) return;
    await settleHoldsWrite(this.env.DB, ids).run();
    r.holds = (r.holds ?? []).filter((id) => !ids.includes(id));
    this.save();
  }

  /**
   * Writes the comparison's D1 row (with the first turn's prompt) once. The POST that created the comparison
   * doesn't wait for it: it runs while both sides are being asked, and each side waits for it before it
   * settles, so every later D1 write (a side, a vote) finds the row there.
   */
  private async list(): Promise<void> {
    const r = this.record!;
    if (!r.unlisted) return;
    await insertComparison(openDb(this.env.DB), r);
    // Kept with the record's next save (a side settling): written again after a restart, the row is left as it is.
    delete r.unlisted;
  }

  private async addJudges(judges: string[]) {
    const r = this.record!;
    const fresh = [...new Set(judges)].filter((j) => !r.judges.some((x) => x.judgeModelId === j));
    if (!fresh.length) return;
    for (const judgeModelId of fresh)
      r.judges.push({
        judgeModelId,
        status: "pending",
        orders: [null, null],
        verdict: null,
        flipped: false,
        error: null,
        written: false,
      });
    const skipped = this.skipSelfJudges();
    this.save();
    if (r.revealedAt !== null) for (const j of skipped) await this.announceJudge(j);
    if (this.judgesToAsk().length) await this.ctx.storage.setAlarm(Date.now());
  }

  /** Once names are out, a judge that is one of the two sides is left out (a model doesn't judge its own answer). */
  private skipSelfJudges(): JudgeRecord[] {
    const r = this.record!;
    if (isHidden(r)) return [];
    const selves = r.judges.filter(
      (j) => j.status === "pending" && (j.judgeModelId === r.models.left || j.judgeModelId === r.models.right),
    );
    for (const j of selves) Object.assign(j, { status: "failed", error: SELF_JUDGE });
    return selves;
  }

  /** Asks one judge twice, the left side shown first as A and then as B, one after the other. */
  private async askJudge(generation: number, j: JudgeRecord) {
    const r = this.record!;
    j.status = "running";
    this.save();
    const rules = { env: this.env, cancel: this.cancelSignal, policy: this.retryPolicy(), timeoutMs: r.timeoutMs };
    const ask = (turns: JudgedTurn[]) =>
      askStructured(rules, { modelId: j.judgeModelId, ...buildJudgeRequest(turns), temperature: 0 }, parseJudgeOutput);
    const started = Date.now();
    const first = await ask(r.turns.map((t) => ({ prompt: t.prompt, a: t.left.text, b: t.right.text })));
    const second = first.ok
      ? await ask(r.turns.map((t) => ({ prompt: t.prompt, a: t.right.text, b: t.left.text })))
      : null;
    // Paid for whatever happens next: judge calls have no row of their own to carry their cost.
    await this.keepJudgeSpend(j.judgeModelId, [first.usage, ...(second ? [second.usage] : [])]);
    if (!this.current(generation)) return;
    const outcome = first.ok && second?.ok ? "done" : "failed";
    if (first.ok && second?.ok) {
      const { verdict, flipped } = combineOrders(first.value.winner, second.value.winner);
      Object.assign(j, {
        status: "done",
        verdict,
        flipped,
        orders: [
          { ...first.value, raw: first.raw },
          { ...second.value, raw: second.raw },
        ],
      });
    } else {
      const failed = first.ok ? second! : first;
      Object.assign(j, {
        status: "failed",
        error: failed.ok ? null : failed.error,
        orders: [first.ok ? { ...first.value, raw: first.raw } : null, null],
      });
    }
    this.save();
    logCall(this.env, {
      run: r.id,
      step: "judge",
      model: j.judgeModelId,
      status: outcome,
      latencyMs: Date.now() - started,
      attempts: 1,
      error: j.error,
    });
    if (r.revealedAt !== null) await this.announceJudge(j);
  }

  private async keepJudgeSpend(modelId: string, usages: Usage[]) {
    const tokensIn = usages.reduce<number | null>((n, u) => (u.tokensIn === null ? n : (n ?? 0) + u.tokensIn), null);
    const tokensOut = usages.reduce<number | null>((n, u) => (u.tokensOut === null ? n : (n ?? 0) + u.tokensOut), null);
    if (!tokensIn && !tokensOut) return;
    const costUsd = costOf(this.env, modelId, tokensIn ?? 0, tokensOut ?? 0);
    const r = this.record!;
    const spent = r.judgeSpend ?? { costUsd: 0, unknownCostCalls: 0 };
    r.judgeSpend = {
      costUsd: spent.costUsd + (costUsd ?? 0),
      unknownCostCalls: spent.unknownCostCalls + (costUsd === null ? 1 : 0),
    };
    this.save();
    await insertSpendEntry(openDb(this.env.DB), {
      kind: "judge",
      itemId: this.record!.id,
      modelId,
      tokensIn,
      tokensOut,
      costUsd,
      completedAt: Date.now(),
    });
  }

  /**
   * Once names are out, judges may be shown and asked: write and show the finished ones, leave out any that is
   * a side, then ask those that waited for the vote, or else the automatic panel.
   */
  private async afterFirstVote() {
    const r = this.record!;
    this.skipSelfJudges();
    this.save();
    for (const j of r.judges.filter((x) => x.status === "done" || x.status === "failed")) await this.announceJudge(j);
    if (!r.judges.length && r.autoJudges.length) await this.addJudges(r.autoJudges);
    else if (this.judgesToAsk().length) await this.ctx.storage.setAlarm(Date.now());
    if (!this.hasWork()) await this.settleHolds();
  }

  private async announceJudge(j: JudgeRecord) {
    const r = this.record!;
    if (j.status === "done" && !j.written) {
      await saveJudgeVerdict(openDb(this.env.DB), r, j);
      j.written = true;
      this.save();
    }
    this.emit({ type: "judge.completed", judge: judgeView(j), panel: panelOf(r) });
  }

  private async answerSide(generation: number, turn: TurnRecord, side: Side, listed: Promise<void>) {
    const r = this.record!;
    const s = turn[side];
    const at = { side, turn: turn.turn };
    // The status this side's ending settles, announced after its own event: the other side may end while
    // this one is still writing, and its status must not overtake this side's completion.
    let settled: ComparisonRecord["status"] = "answering";
    await streamAndSettle({
      rules: { env: this.env, cancel: this.cancelSignal, policy: this.retryPolicy(), timeoutMs: r.timeoutMs },
      request: {
        modelId: r.models[side],
        messages: historyFor(r, side),
        system: r.params.systemPrompt,
        temperature: r.params.temperature,
        maxTokens: r.params.maxTokens,
      },
      record: s,
      current: () => this.current(generation),
      save: () => this.save(),
      announceStart: (attempt, voided) => {
        // While names are hidden an attempt count tells providers apart (a parameter one of them rejects is
        // dropped and the call repeated): a side starts once a turn, and again only when a repeat voids text
        // already shown, each time as attempt 1.
        if (!isHidden(r)) this.emit({ type: "side.started", ...at, attempt });
        else if (attempt === 1 || voided) this.emit({ type: "side.started", ...at, attempt: 1 });
      },
      announceDelta: (text) => this.emit({ type: "side.delta", ...at, text }),
      // Settled only once the row is in D1: should writing it fail, the side is still unsettled when the step runs again.
      ready: listed,
      keep: async () => {
        settled = this.settle(turn);
        // D1 first, then the room's own storage, with the events that announce the side: a storage write holds
        // back every outgoing call until it is committed, so saved first it would have made D1 wait for it, and
        // saved while D1 writes it would have been a commit of its own.
        await saveSide(openDb(this.env.DB), r, turn.turn, side, s);
        this.save();
      },
      log: { run: r.id, step: "side", model: r.models[side] },
      announceEnd: (reply) => {
        if (reply.ok)
          this.emit({
            type: "side.completed",
            ...at,
            text: s.text,
            latencyMs: s.latencyMs!,
            tokensIn: s.tokensIn,
            tokensOut: s.tokensOut,
            truncated: s.truncated,
          });
        else {
          const error = isHidden(r) ? hiddenError(s.errorKind, r.timeoutMs) : s.error!;
          this.emit({ type: "side.failed", ...at, error, text: s.text, latencyMs: s.latencyMs! });
        }
        if (settled !== "answering") this.emit({ type: "comparison.status", status: settled });
      },
    });
  }

  /** The comparison's status once a side of the latest turn ended: still answering while the other side is. */
  private settle(turn: TurnRecord): ComparisonRecord["status"] {
    const r = this.record!;
    const statuses = SIDES.map((side) => turn[side].status);
    if (statuses.some((s) => s === "pending" || s === "streaming")) return "answering";
    r.status = statuses.every((s) => s === "done") ? "ready" : "failed";
    if (r.status === "ready") r.bothAnsweredAt = Date.now();
    return r.status;
  }

  /** A comparison past the archive's window takes nothing that writes to its D1 row, which may be gone. */
  private closed(): Refusal | null {
    const reason = closedReason(this.env, this.record!.createdAt);
    return reason ? refuse("closed", reason) : null;
  }

  private flagsFor(cast: CastVote, now: number): VoteFlag[] {
    const r = this.record!;
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

  private replay(
    comparisonId: string,
    prior: VoteResponse,
    choice: VoteChoice,
  ): Outcome<{ replayed: boolean; response: VoteResponse }> {
    if (comparisonId !== this.record!.id || prior.choice !== choice)
      return refuse(
        "idempotency_conflict",
        "This Idempotency-Key was already used for a different vote. Use a new key for a new vote.",
      );
    return { ok: true, replayed: true, response: prior };
  }

  /** The record without its votes: each vote has a key of its own (saveVote), so a vote writes only itself. */
  private save() {
    if (this.record) this.ctx.storage.kv.put(RECORD_KEY, { ...this.record, votes: [] });
  }

  private saveVote(vote: VoteRecord) {
    this.ctx.storage.kv.put(voteKey(vote), vote);
  }

  /** The stored record with its votes, oldest first; a record saved with its votes inline moves them to their keys. */
  private withVotes(stored: ComparisonRecord): ComparisonRecord {
    for (const vote of stored.votes ?? []) this.saveVote(vote);
    const votes = [...this.ctx.storage.kv.list<VoteRecord>({ prefix: VOTE_PREFIX })].map(([, vote]) => vote);
    return { ...stored, votes };
  }
}

/** A side's own conversation: every earlier prompt with this side's reply, then the latest prompt. */
function historyFor(r: ComparisonRecord, side: Side): ChatMessage[] {
  return r.turns.flatMap((t, i): ChatMessage[] =>
    i === r.turns.length - 1
      ? [{ role: "user", content: t.prompt }]
      : [
          { role: "user", content: t.prompt },
          { role: "assistant", content: t[side].text },
        ],
  );
}
