/**
 * A goal evaluation's call: one goal battle between two contestants on an item, played in its own GoalBattleRoom
 * (turns, goal checks, the outcome rules and the judge in both orders are that room's), which this call starts and
 * awaits. The battle's room is named from the evaluation, the call and its attempt, so a restarted evaluation
 * awaits the battle it started instead of starting another; a pause or a cancel stops the battles under way (a
 * paused call plays a fresh battle when the evaluation resumes, as a retried one does). The outcome is stored like
 * any finished call's; the evaluation, not the battle, writes its `eval` battle (writes.ts).
 */
import type { GoalSideTotals } from "../../db/schema";
import { DEFAULT_GOAL_MARKER, type GoalEndedReason, type GoalSide, type GoalWinner } from "../../shared/constants";
import type { GoalBattle } from "../../shared/goal-battle";
import type { GoalContestant } from "../goal-battle/record";
import type { StartGoalBattle } from "../goal-battle-room";
import type { CallRow, ItemGoal } from "./call-store";
import type { EvaluationContext } from "./context";
import type { EvaluationRecord } from "./record";

/** What a goal call keeps of its battle's end (in the call's `outcome`). */
export interface GoalOutcome {
  battleId: string;
  winner: GoalWinner;
  endedReason: GoalEndedReason | null;
  rationale: string | null;
  /** the judge whose verdict decided it; null when the goal rule did (a side reached the goal, or failed) */
  judge: string | null;
  turns: number;
  /** each side's tokens, latency, turns, cost and when it reached the goal */
  sides: Record<GoalSide, GoalSideTotals>;
}

/** How long one wait on the battle room lasts before the call asks again (and looks whether it was halted). */
const WAIT_MS = 30_000;

/** Waits in a row that may end with the battle's room gone before the call gives up on it. */
const MAX_LOST_WAITS = 3;

/** The goal calls of each evaluation waiting on their battles, woken to stop them by a pause. */
const waiting = new Map<string, Set<() => void>>();

/** Stops the battles an evaluation has under way (its pause): their calls are made again, as fresh battles, on resume. */
export function haltGoalBattles(evaluationId: string): void {
  for (const wake of waiting.get(evaluationId) ?? []) wake();
}

/** The battle's id (and its room's name) for this attempt of the call. */
export async function goalBattleIdOf(evaluationId: string, callId: string, attempt: number): Promise<string> {
  const bytes = new TextEncoder().encode(`${evaluationId}\u0000${callId}\u0000${attempt}`);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...hash.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${evaluationId}-goal-${hex}`;
}

export async function makeGoalCall(ctx: EvaluationContext, call: CallRow): Promise<CallRow | null> {
  const r = ctx.record;
  const battleId = await goalBattleIdOf(r.id, call.id, call.attempt);
  const room = ctx.env.GOAL_BATTLE_ROOM.get(ctx.env.GOAL_BATTLE_ROOM.idFromName(battleId));
  const started = Date.now();
  const cancel = ctx.rules().cancel;
  let halted = false;
  let wake = () => {};
  const halt = new Promise<null>((resolve) => {
    wake = () => {
      halted = true;
      resolve(null);
    };
  });
  cancel.addEventListener("abort", wake, { once: true });
  const calls = waiting.get(r.id) ?? new Set();
  waiting.set(r.id, calls.add(wake));
  let battle: GoalBattle | null = null;
  let paidUsd: number | null = null;
  /** the battle's end was read from its `outcome` (which says what it cost), not from its start */
  let asked = false;
  let failure: string | null = null;
  try {
    const begun = await room.start(battleStart(r, ctx.store.item(call.item), call, battleId));
    if (begun.ok) battle = begun.battle;
    else failure = begun.message;
    let lost = 0;
    while (battle && !ended(battle) && !halted && ctx.current()) {
      try {
        const seen = await Promise.race([room.outcome(WAIT_MS), halt]);
        if (seen) {
          battle = seen.battle;
          paidUsd = seen.paidUsd;
          asked = true;
        }
        lost = 0;
      } catch (err) {
        // The battle's room was evicted under the wait: asking again wakes it, and it goes on where it stood.
        if (++lost > MAX_LOST_WAITS) throw err;
      }
    }
  } catch (err) {
    failure = `The goal battle could not be played: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    calls.delete(wake);
    if (!calls.size) waiting.delete(r.id);
    cancel.removeEventListener("abort", wake);
  }
  if (!ctx.current()) {
    // Cancelled: the call is marked so already; its battle stops spending.
    await room.stop().catch(() => {});
    return null;
  }
  if (battle && ended(battle)) {
    // Over already when this call started (a restart): its cost is read once more.
    if (!asked) paidUsd = (await room.outcome(0).catch(() => null))?.paidUsd ?? null;
    return keep(ctx, call, started, { battle, paidUsd }, null);
  }
  if (halted) {
    // Paused: the battle stops, and the call plays a fresh one when the evaluation resumes.
    await room.stop().catch(() => {});
    ctx.store.requeueAsNew(call.id);
    return null;
  }
  return keep(ctx, call, started, null, failure ?? "The goal battle was not found.");
}

const ended = (b: GoalBattle) => b.state !== "queued" && b.state !== "running";

/** The battle room's start: the item's goal, the evaluation's battle settings, the call's sides as planned. */
function battleStart(
  r: EvaluationRecord,
  item: { prompt: string; category: string | null; goal: string | null },
  call: CallRow,
  battleId: string,
): StartGoalBattle {
  const plan = r.goal!;
  const goal = JSON.parse(item.goal!) as ItemGoal;
  // A script goes on from the item's prompt; a simulated user writes from the second turn on.
  const script = plan.user.mode === "script" ? [item.prompt, ...(plan.user.script ?? [])] : null;
  const contestant = (id: string): GoalContestant => {
    const c = r.contestants.find((x) => x.id === id)!;
    return { id: c.id, modelId: c.modelId, params: c.params, displayName: c.displayName };
  };
  return {
    record: {
      id: battleId,
      goal: goal.goal,
      systemPrompt: plan.systemPrompt,
      judgeMode: "goal",
      user: { mode: plan.user.mode, modelId: plan.user.modelId, persona: goal.persona, script },
      marker: goal.marker ?? (plan.judgeModelId ? null : DEFAULT_GOAL_MARKER),
      judgeModelId: plan.judgeModelId,
      maxTurns: script ? Math.min(plan.maxTurns, script.length) : plan.maxTurns,
      turnTimeoutMs: plan.turnTimeoutMs,
      temperature: r.settings.temperature,
      maxTokens: r.settings.maxTokens,
      category: item.category,
      // The evaluation's own hold covers its battles.
      holdId: null,
      ...(script ? {} : { opening: item.prompt }),
      evaluationId: r.id,
    },
    contestants: [contestant(call.first!), contestant(call.second!)],
    sidesAsGiven: true,
  };
}

/**
 * Stores the battle's end as the call's result. A battle with no winner (both sides failed a turn, the simulated
 * user or the judge failed, or someone stopped it) is a failed call: nothing to count, and a retry plays it again.
 */
function keep(
  ctx: EvaluationContext,
  call: CallRow,
  started: number,
  ended: { battle: GoalBattle; paidUsd: number | null } | null,
  failure: string | null,
): CallRow {
  const battle = ended?.battle ?? null;
  const sides = battle ? [battle.sides.A, battle.sides.B] : [];
  const decided = battle !== null && battle.winner !== null && battle.winner !== "none";
  const totals = ({ contestant: _c, displayName: _d, ...t }: GoalBattle["sides"]["A"]): GoalSideTotals => t;
  const outcome: GoalOutcome | null = battle && {
    battleId: battle.jobId,
    winner: battle.winner ?? "none",
    endedReason: battle.endedReason,
    rationale: battle.rationale,
    // The goal rule decides a battle that ends by the goal, an error or a timeout; the judge, one at the limit.
    judge: battle.endedReason === "limit" ? ctx.record.goal!.judgeModelId : null,
    turns: battle.currentTurn,
    sides: { A: totals(battle.sides.A), B: totals(battle.sides.B) },
  };
  return ctx.store.finish(call.id, {
    status: decided ? "done" : "failed",
    outcome: outcome && JSON.stringify(outcome),
    error: decided ? null : (failure ?? battle?.rationale ?? "The battle ended with no winner."),
    latencyMs: Date.now() - started,
    tokensIn: sides.length ? sides.reduce((n, s) => n + s.tokensIn, 0) : null,
    tokensOut: sides.length ? sides.reduce((n, s) => n + s.tokensOut, 0) : null,
    // Every call of the battle: its sides', the simulated user's and the judge's.
    costUsd: ended?.paidUsd ?? null,
  });
}
