/** What of a comparison's record clients may see, and when: no name of either side before the first vote. */
import type { CallTargets, ComparisonRecord, JudgeRecord, SideRecord, TurnRecord } from "../db/records";
import { panelVerdict } from "../judges/verdict";
import { shownName } from "./targets";
import type { ComparisonDetail, JudgeView, Reveal, SideVerdict, SideView, VoteView } from "../shared/arena";
import { hiddenError } from "./hidden-error";
import { pendingReply } from "./stream-and-settle";

export type { ComparisonRecord, JudgeRecord, SideRecord, TurnRecord, VoteRecord } from "../db/records";
export { hiddenError };

/** True while names must stay hidden: a blind comparison before its first vote. */
export const isHidden = (r: Pick<ComparisonRecord, "blind" | "revealedAt">) => r.blind && r.revealedAt === null;

export function revealOf(r: ComparisonRecord): Reveal {
  const named = (modelId: string) => ({ modelId, displayName: shownName(r.targets, modelId) });
  return { left: named(r.models.left), right: named(r.models.right) };
}

export function newSide(): SideRecord {
  return { ...pendingReply(), errorKind: null, attempts: 0 };
}

function sideView(r: ComparisonRecord, s: SideRecord): SideView {
  const error =
    s.error === null
      ? null
      : isHidden(r) && s.errorKind !== "watchdog"
        ? hiddenError(s.errorKind, r.timeoutMs)
        : s.error;
  return {
    status: s.status,
    text: s.text,
    latencyMs: s.latencyMs,
    tokensIn: s.tokensIn,
    tokensOut: s.tokensOut,
    error,
    truncated: s.truncated,
  };
}

export function voteView(v: ComparisonRecord["votes"][number]): VoteView {
  return { voteId: v.voteId, choice: v.choice, rows: v.rows, flags: v.flags, createdAt: v.createdAt };
}

export function toComparisonDetail(r: ComparisonRecord): ComparisonDetail {
  return {
    comparison: {
      id: r.id,
      createdAt: r.createdAt,
      status: r.status,
      category: r.category,
      blind: r.blind,
      mode: r.mode,
      modeNote: r.modeNote,
      params: r.params,
      maxTurns: r.maxTurns,
      bothAnsweredAt: r.bothAnsweredAt,
      votedAt: r.revealedAt,
    },
    turns: r.turns.map((t: TurnRecord) => ({
      turn: t.turn,
      prompt: t.prompt,
      left: sideView(r, t.left),
      right: sideView(r, t.right),
    })),
    reveal: isHidden(r) ? null : revealOf(r),
    votes: r.votes.map(voteView),
    judges: r.revealedAt === null ? null : r.judges.map((j) => judgeView(j, r.targets)),
    panel: r.revealedAt === null ? null : panelOf(r),
    totals: isHidden(r) ? null : totalsOf(r),
  };
}

/** Every paid call so far: each turn's sides as they stand (a retried side's failed call is not billed) and every judge. */
function totalsOf(r: ComparisonRecord): { costUsd: number; unknownCostCalls: number } {
  const sides = r.turns.flatMap((t) => [t.left, t.right]).filter((s) => (s.tokensIn ?? 0) + (s.tokensOut ?? 0) > 0);
  const judges = r.judgeSpend;
  return {
    costUsd: sides.reduce((n, s) => n + (s.costUsd ?? 0), judges.costUsd),
    unknownCostCalls: sides.filter((s) => s.costUsd === null).length + judges.unknownCostCalls,
  };
}

export function judgeView(j: JudgeRecord, targets?: CallTargets): JudgeView {
  return {
    judgeModelId: j.judgeModelId,
    displayName: shownName(targets, j.judgeModelId),
    status: j.status,
    verdict: j.verdict,
    flipped: j.flipped,
    orders: j.orders,
    error: j.error,
  };
}

export function panelOf(r: ComparisonRecord): SideVerdict | null {
  return panelVerdict(r.judges.flatMap((j) => (j.verdict ? [j.verdict] : [])));
}
