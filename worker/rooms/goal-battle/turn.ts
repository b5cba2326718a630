/**
 * One turn of a goal battle, both sides at once: each side is asked its next user message (the script's, the same
 * for both; or the simulated user's, written for that side's own conversation), replies through the shared "stream
 * and settle" step, and has its reply checked for the goal (the marker, then the judge model). Every piece is stored
 * once done, so a turn resumed after an eviction makes none of its finished calls again.
 */
import { buildGoalCheckRequest, parseGoalCheck } from "../../judges/goal-prompt";
import type { GoalSide } from "../../shared/constants";
import type { GoalCheck } from "../../shared/goal-battle";
import { logCall } from "../log";
import { streamReply } from "../reply";
import { pendingReply, type StreamedRecord, streamAndSettle } from "../stream-and-settle";
import { withPresetSystem } from "../targets";
import type { GoalBattleContext } from "./context";
import { askJudgeModel } from "./judge-call";
import type { SideAfterTurn } from "./outcome";
import { sideMessages, sideSystem, type TranscriptTurn, userMessages, userSystem } from "./prompts";
import { loadMessage, type StoredMessage, saveMessage } from "./record";

export type TurnResult =
  | { ok: true; sides: Record<GoalSide, SideAfterTurn> }
  /** the simulated user failed: nobody's fault among the sides */
  | { ok: false; error: string };

export async function playTurn(ctx: GoalBattleContext, turn: number): Promise<TurnResult | null> {
  const [a, b] = await Promise.all([playSide(ctx, "A", turn), playSide(ctx, "B", turn)]);
  if (!ctx.current() || a === null || b === null) return null;
  if ("userError" in a || "userError" in b) {
    const error = "userError" in a ? a.userError : (b as { userError: string }).userError;
    return { ok: false, error };
  }
  return { ok: true, sides: { A: a, B: b } };
}

/** A side's conversation before `turn`, as its stored messages hold it. */
export function transcriptOf(ctx: GoalBattleContext, side: GoalSide, before: number): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  for (let t = 1; t < before; t++) {
    const user = loadMessage(ctx.kv, t, side, "user");
    const reply = loadMessage(ctx.kv, t, side, "assistant");
    if (user && reply) turns.push({ user: user.content, assistant: reply.content });
  }
  return turns;
}

async function playSide(
  ctx: GoalBattleContext,
  side: GoalSide,
  turn: number,
): Promise<SideAfterTurn | { userError: string } | null> {
  const earlier = transcriptOf(ctx, side, turn);
  const user = loadMessage(ctx.kv, turn, side, "user") ?? (await askUser(ctx, side, turn, earlier));
  if (!ctx.current()) return null;
  if ("userError" in user) return user;
  let reply = loadMessage(ctx.kv, turn, side, "assistant") ?? (await askSide(ctx, side, turn, earlier, user.content));
  if (!reply || !ctx.current()) return null;
  if (reply.error !== null)
    return { failure: { timeout: reply.errorKind === "timeout" }, reached: false, tokens: 0, latencyMs: 0 };
  if (reply.goalCheck === null) {
    const check = await checkGoal(ctx, [...earlier, { user: user.content, assistant: reply.content }], reply.content);
    if (!ctx.current()) return null;
    reply = { ...reply, goalCheck: check };
    saveMessage(ctx.kv, reply);
    ctx.stored(reply);
  }
  const reached = reply.goalCheck?.reached ?? false;
  const totals = ctx.record.sides[side].totals;
  if (reached && totals.goalReachedAt === null) totals.goalReachedAt = turn;
  return { failure: null, reached, tokens: totals.tokensIn + totals.tokensOut, latencyMs: totals.latencyMs };
}

/** The next user message to `side`: the script's line, or the simulated user's reply to that side's conversation. */
async function askUser(
  ctx: GoalBattleContext,
  side: GoalSide,
  turn: number,
  earlier: TranscriptTurn[],
): Promise<StoredMessage | { userError: string }> {
  const r = ctx.record;
  const base = { turn, side, role: "user" as const, goalCheck: null, error: null, errorKind: null };
  const opening = turn === 1 ? r.opening : undefined;
  if (r.user.mode === "script" || opening !== undefined) {
    const message: StoredMessage = {
      ...base,
      content: opening ?? r.user.script![turn - 1],
      tokensIn: null,
      tokensOut: null,
      latencyMs: null,
      costUsd: null,
      createdAt: Date.now(),
    };
    return keep(ctx, message);
  }
  const modelId = r.user.modelId!;
  const reply = await ctx.gate.run(modelId, () =>
    streamReply(
      ctx.rules(),
      {
        modelId,
        messages: userMessages(earlier),
        system: userSystem(r.goal, r.user.persona),
        temperature: r.temperature ?? undefined,
      },
      { onAttempt: () => {}, onDelta: () => {} },
    ),
  );
  logCall(ctx.env, {
    run: r.id,
    step: "goal-user",
    model: modelId,
    status: reply.ok ? "done" : "failed",
    latencyMs: reply.latencyMs,
    attempts: reply.attempts,
    error: reply.ok ? undefined : reply.error,
  });
  if (!ctx.current()) return { userError: "stopped" };
  if (!reply.ok) return { userError: `The simulated user (${modelId}) failed on turn ${turn}: ${reply.error}` };
  const g = reply.generation;
  ctx.paid({ modelId, tokensIn: g.tokensIn, tokensOut: g.tokensOut, costUsd: reply.costUsd });
  return keep(ctx, {
    ...base,
    content: g.text.trim(),
    tokensIn: g.tokensIn,
    tokensOut: g.tokensOut,
    latencyMs: reply.latencyMs,
    costUsd: reply.costUsd,
    createdAt: Date.now(),
  });
}

function keep(ctx: GoalBattleContext, message: StoredMessage): StoredMessage {
  saveMessage(ctx.kv, message);
  ctx.stored(message);
  return message;
}

/** The side's reply, streamed (each chunk a `side.delta`) and settled: stored, its totals added, its cost kept. */
async function askSide(
  ctx: GoalBattleContext,
  side: GoalSide,
  turn: number,
  earlier: TranscriptTurn[],
  next: string,
): Promise<StoredMessage | null> {
  const r = ctx.record;
  const contestant = r.sides[side];
  const record: StreamedRecord = { ...pendingReply(), attempts: 0, errorKind: null };
  let stored: StoredMessage | null = null;
  await ctx.gate.run(contestant.modelId, () =>
    streamAndSettle({
      rules: ctx.rules(),
      request: {
        modelId: contestant.modelId,
        messages: sideMessages(earlier, next),
        system: withPresetSystem(contestant, sideSystem(r.systemPrompt, r.goal, r.marker)),
        temperature: contestant.params.temperature ?? r.temperature ?? undefined,
        maxTokens: contestant.params.maxTokens ?? r.maxTokens ?? undefined,
      },
      record,
      current: ctx.current,
      save: () => {},
      announceStart: () => {},
      announceDelta: (text) => ctx.delta(side, turn, text),
      keep: () => {
        const done = record.status === "done";
        const totals = r.sides[side].totals;
        if (done) {
          totals.tokensIn += record.tokensIn ?? 0;
          totals.tokensOut += record.tokensOut ?? 0;
          totals.latencyMs += record.latencyMs ?? 0;
          totals.turns++;
          totals.costUsd = totals.costUsd === null || record.costUsd == null ? null : totals.costUsd + record.costUsd;
        } else totals.failed = true;
        if (record.tokensIn !== null || record.tokensOut !== null)
          ctx.paid({
            modelId: contestant.modelId,
            tokensIn: record.tokensIn,
            tokensOut: record.tokensOut,
            costUsd: record.costUsd ?? null,
          });
        stored = keep(ctx, {
          turn,
          side,
          role: "assistant",
          content: record.text,
          tokensIn: record.tokensIn,
          tokensOut: record.tokensOut,
          latencyMs: record.latencyMs,
          goalCheck: null,
          error: done ? null : (record.error ?? "failed"),
          errorKind: done ? null : (record.errorKind ?? null),
          costUsd: record.costUsd ?? null,
          createdAt: Date.now(),
        });
      },
      log: { run: r.id, step: "goal-side", model: contestant.modelId },
      announceEnd: () => {},
    }),
  );
  return stored;
}

/** Did this reply reach the goal: the marker first (no call), then the judge model's yes or no with its reason. */
async function checkGoal(ctx: GoalBattleContext, turns: TranscriptTurn[], reply: string): Promise<GoalCheck> {
  const r = ctx.record;
  if (r.marker && reply.includes(r.marker))
    return { reached: true, reason: `The reply wrote the marker ${r.marker}.`, by: "marker" };
  if (!r.judgeModelId)
    return { reached: false, reason: `The reply did not write the marker ${r.marker}.`, by: "marker" };
  const out = await askJudgeModel(
    ctx,
    "goal-check",
    { modelId: r.judgeModelId, ...buildGoalCheckRequest(r.goal, turns) },
    parseGoalCheck,
  );
  if (!out.ok) return { reached: false, reason: `The goal check failed: ${out.error}`, by: "judge" };
  return { reached: out.value.reached, reason: out.value.reason, by: "judge" };
}
