/** The sides' answering: each turn both sides answer the same prompt with their own history, streamed and settled. */
import { saveSide } from "../../db/arena-queries";
import { openDb } from "../../db/queries";
import type { ChatMessage } from "../../providers/types";
import { SIDES, type Side } from "../../shared/arena";
import { addRedactions, type Redactions, redactionCount } from "../../shared/redact";
import { type ComparisonRecord, hiddenError, isHidden, newSide, type TurnRecord } from "../comparison-record";
import { type Refusal, refuse } from "../room-result";
import { streamAndSettle } from "../stream-and-settle";
import { targetOf } from "../targets";
import type { ComparisonContext } from "./context";

/** The sides of the latest turn still to answer. */
export function sidesToAnswer(r: ComparisonRecord | null): Side[] {
  const turn = r?.turns.at(-1);
  return turn ? SIDES.filter((side) => turn[side].status === "pending" || turn[side].status === "streaming") : [];
}

/** Opens the next turn on the record (not yet saved), or says why it can't be taken. */
export function openTurn(r: ComparisonRecord, content: string, redactions: Redactions): TurnRecord | Refusal {
  if (r.revealedAt !== null)
    return refuse("voted", "This comparison has a vote, so it takes no new turns. Start a new round to keep chatting.");
  if (r.status !== "ready")
    return refuse(
      "not_ready",
      "Both sides must finish the current turn before the next one; retry a failed side first.",
    );
  if (r.turns.length >= r.maxTurns)
    return refuse("too_many_turns", `This comparison has reached its ${r.maxTurns} turns. Vote, or start a new round.`);
  const turn: TurnRecord = { turn: r.turns.length + 1, prompt: content, left: newSide(), right: newSide() };
  r.turns.push(turn);
  // Judges compare whole conversations: a new turn makes any verdict so far stale (none is written before a vote).
  r.judges = [];
  if (redactionCount(redactions))
    r.params = { ...r.params, redactions: addRedactions(r.params.redactions ?? {}, redactions) };
  r.status = "answering";
  r.bothAnsweredAt = null;
  return turn;
}

/** Makes the failed sides of the latest turn pending again (not yet saved), or says there is none. */
export function reopenFailed(r: ComparisonRecord): Refusal | null {
  const turn = r.turns.at(-1)!;
  const failed = SIDES.filter((side) => turn[side].status === "failed");
  if (!failed.length)
    return refuse("nothing_to_retry", "No side of the latest turn failed, so there is nothing to retry.");
  for (const side of failed) turn[side] = newSide();
  r.status = "answering";
  return null;
}

/**
 * Every side still to answer answers, each run to its end before a failure counts, so a step that fails leaves
 * no call behind. `listed` is the comparison's D1 row being written: a side settles only once it is there.
 */
export async function answerSides(ctx: ComparisonContext, generation: number, listed: Promise<void>): Promise<void> {
  const turn = ctx.record.turns.at(-1)!;
  const ended = await Promise.allSettled([
    ...sidesToAnswer(ctx.record).map((side) => answerSide(ctx, generation, turn, side, listed)),
    listed,
  ]);
  const failed = ended.find((e) => e.status === "rejected");
  if (failed) throw failed.reason;
}

async function answerSide(
  ctx: ComparisonContext,
  generation: number,
  turn: TurnRecord,
  side: Side,
  listed: Promise<void>,
) {
  const r = ctx.record;
  const s = turn[side];
  const at = { side, turn: turn.turn };
  // The status this side's ending settles, announced after its own event: the other side may end while
  // this one is still writing, and its status must not overtake this side's completion.
  let settled: ComparisonRecord["status"] = "answering";
  // A preset side brings its own system prompt and parameters, over the comparison's.
  const target = targetOf(r.targets, r.models[side]);
  const params = { ...r.params, ...target.params };
  await streamAndSettle({
    rules: ctx.rules(),
    request: {
      modelId: target.modelId,
      messages: historyFor(r, side),
      system: params.systemPrompt,
      temperature: params.temperature,
      maxTokens: params.maxTokens,
    },
    record: s,
    current: () => ctx.current(generation),
    save: () => ctx.save(),
    announceStart: (attempt, voided) => {
      // While names are hidden an attempt count tells providers apart (a parameter one of them rejects is
      // dropped and the call repeated): a side starts once a turn, and again only when a repeat voids text
      // already shown, each time as attempt 1.
      if (!isHidden(r)) ctx.emit({ type: "side.started", ...at, attempt });
      else if (attempt === 1 || voided) ctx.emit({ type: "side.started", ...at, attempt: 1 });
    },
    announceDelta: (text) => ctx.emit({ type: "side.delta", ...at, text }),
    // Settled only once the row is in D1: should writing it fail, the side is still unsettled when the step runs again.
    ready: listed,
    keep: async () => {
      settled = settleTurn(r, turn);
      // D1 first, then the room's own storage, with the events that announce the side: a storage write holds
      // back every outgoing call until it is committed, so saved first it would have made D1 wait for it, and
      // saved while D1 writes it would have been a commit of its own.
      await saveSide(openDb(ctx.env.DB), r, turn.turn, side, s);
      ctx.save();
    },
    log: { run: r.id, step: "side", model: r.models[side] },
    announceEnd: (reply) => {
      if (reply.ok)
        ctx.emit({
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
        ctx.emit({ type: "side.failed", ...at, error, text: s.text, latencyMs: s.latencyMs! });
      }
      if (settled !== "answering") ctx.emit({ type: "comparison.status", status: settled });
    },
  });
}

/** The watchdog gave up: a side still answering fails with `reason` (it names no model, so it shows while blind). */
export async function failStuckSides(ctx: ComparisonContext, reason: string): Promise<void> {
  const r = ctx.record;
  const turn = r.turns.at(-1)!;
  for (const side of sidesToAnswer(r)) {
    const s = turn[side];
    Object.assign(s, { status: "failed", error: reason, errorKind: "watchdog", truncated: s.text.trim().length > 0 });
    const settled = settleTurn(r, turn);
    ctx.save();
    await saveSide(openDb(ctx.env.DB), r, turn.turn, side, s);
    ctx.emit({ type: "side.failed", side, turn: turn.turn, error: reason, text: s.text, latencyMs: s.latencyMs ?? 0 });
    if (settled !== "answering") ctx.emit({ type: "comparison.status", status: settled });
  }
}

/** The comparison's status once a side of the latest turn ended: still answering while the other side is. */
function settleTurn(r: ComparisonRecord, turn: TurnRecord): ComparisonRecord["status"] {
  const statuses = SIDES.map((side) => turn[side].status);
  if (statuses.some((s) => s === "pending" || s === "streaming")) return "answering";
  r.status = statuses.every((s) => s === "done") ? "ready" : "failed";
  if (r.status === "ready") r.bothAnsweredAt = Date.now();
  return r.status;
}

/** A side's own conversation: the context it continues, every earlier prompt with this side's reply, then the latest prompt. */
function historyFor(r: ComparisonRecord, side: Side): ChatMessage[] {
  const context: ChatMessage[] = r.context ?? [];
  return context.concat(
    r.turns.flatMap((t, i): ChatMessage[] =>
      i === r.turns.length - 1
        ? [{ role: "user", content: t.prompt }]
        : [
            { role: "user", content: t.prompt },
            { role: "assistant", content: t[side].text },
          ],
    ),
  );
}
