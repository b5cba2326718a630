/** How each live event changes the page's copy of an arena comparison. Mutates a draft (used inside Solid's `produce`). */
import type {
  ComparisonDetail,
  JudgeView,
  SideVerdict,
  SideView,
  TurnView,
  VoteChoice,
  VoteFlag,
  VoteView,
} from "../../../worker/shared/arena";
import type { ComparisonEvent } from "../../../worker/shared/events";
import { MAX_JUDGES, SIDES, type Side } from "../../../worker/shared/constants";

export const SIDE_LETTER: Record<Side, "A" | "B"> = { left: "A", right: "B" };

const newSide = (): SideView => ({
  status: "pending",
  text: "",
  latencyMs: null,
  tokensIn: null,
  tokensOut: null,
  error: null,
  truncated: false,
});

export const latestTurn = (d: ComparisonDetail): TurnView | undefined => d.turns[d.turns.length - 1];

/** Both sides of the latest turn answered, and nothing is recorded yet: a vote is fair now. */
export const canVote = (d: ComparisonDetail) =>
  d.comparison.status === "ready" && SIDES.every((s) => latestTurn(d)?.[s].status === "done");

/** Applies one event; applying one the page already knows of (a vote it recorded itself) changes nothing. */
export function applyComparisonEvent(draft: ComparisonDetail, e: Exclude<ComparisonEvent, { type: "snapshot" }>): void {
  const turn = "turn" in e ? draft.turns.find((t) => t.turn === e.turn) : undefined;
  switch (e.type) {
    case "comparison.status": {
      draft.comparison.status = e.status;
      const latest = latestTurn(draft);
      // A retry asks the failed sides of the latest turn again: they start over.
      if (e.status === "answering" && latest)
        for (const s of SIDES) if (latest[s].status === "failed") latest[s] = newSide();
      if (e.status === "ready") draft.comparison.bothAnsweredAt ??= Date.now();
      if (e.status === "answering") draft.comparison.bothAnsweredAt = null;
      return;
    }
    case "turn.started":
      if (!turn) draft.turns.push({ turn: e.turn, prompt: e.prompt, left: newSide(), right: newSide() });
      return;
    case "side.started":
      if (turn) turn[e.side] = { ...newSide(), status: "streaming" };
      return;
    case "side.delta":
      if (turn) turn[e.side].text += e.text;
      return;
    case "side.completed":
      if (turn)
        turn[e.side] = {
          status: "done",
          text: e.text,
          latencyMs: e.latencyMs,
          tokensIn: e.tokensIn,
          tokensOut: e.tokensOut,
          error: null,
          truncated: e.truncated,
        };
      return;
    case "side.failed":
      if (turn)
        turn[e.side] = {
          ...newSide(),
          status: "failed",
          text: e.text,
          error: e.error,
          latencyMs: e.latencyMs,
          truncated: e.text.trim().length > 0,
        };
      return;
    case "vote.recorded":
      recordVote(draft, e.vote, e.reveal, e.status);
      return;
    case "vote.withdrawn":
      draft.votes = draft.votes.filter((v) => v.voteId !== e.voteId);
      draft.comparison.status = e.status;
      return;
    case "judge.completed":
      upsertJudge(draft, e.judge);
      draft.panel = e.panel;
      return;
  }
}

function upsertJudge(draft: ComparisonDetail, judge: JudgeView) {
  // A page cached before judges existed has no list at all.
  draft.judges ??= [];
  const judges = draft.judges;
  const at = judges.findIndex((j) => j.judgeModelId === judge.judgeModelId);
  if (at < 0) judges.push(judge);
  else judges[at] = judge;
}

const finished = (j: JudgeView) => j.status === "done" || j.status === "failed";

/**
 * Takes in judges from a fetched copy without going back in time: the room announces a judge only when
 * it finishes, so the page learns of pending ones by asking. The fetched order (the room's) is kept; a
 * judge the page has seen finish stays finished even if the copy was fetched before that, and then the
 * page's panel (from that judge's event) stays too.
 */
export function mergeJudges(draft: ComparisonDetail, fetched: Pick<ComparisonDetail, "judges" | "panel">) {
  if (!fetched.judges) return;
  const known = draft.judges ?? [];
  const has = (list: JudgeView[], j: JudgeView) => list.some((x) => x.judgeModelId === j.judgeModelId);
  let kept = false;
  const merged = fetched.judges.map((f) => {
    const k = known.find((x) => x.judgeModelId === f.judgeModelId);
    if (k && finished(k) && !finished(f)) {
      kept = true;
      return k;
    }
    return f;
  });
  const onlyKnown = known.filter((k) => !has(fetched.judges!, k));
  draft.judges = [...merged, ...onlyKnown];
  if (!kept && !onlyKnown.length) draft.panel = fetched.panel;
}

export function recordVote(
  draft: ComparisonDetail,
  vote: VoteView,
  reveal: NonNullable<ComparisonDetail["reveal"]>,
  status: ComparisonDetail["comparison"]["status"],
) {
  if (!draft.votes.some((v) => v.voteId === vote.voteId)) draft.votes.push(vote);
  draft.reveal = reveal;
  draft.comparison.status = status;
  draft.comparison.votedAt ??= vote.createdAt;
  // Judges may be shown from the first vote on; the room announces each as it finishes.
  draft.judges ??= [];
  draft.panel ??= null;
}

export const CHOICES: readonly { choice: VoteChoice; label: string; key: string }[] = [
  { choice: "left", label: "A is better", key: "1" },
  { choice: "tie", label: "Tie", key: "2" },
  { choice: "both-bad", label: "Both are bad", key: "3" },
  { choice: "right", label: "B is better", key: "4" },
];

/** Why a vote is kept but left out of the ratings, in plain words. */
export const FLAG_TEXT: Record<VoteFlag, string> = {
  too_fast: "cast only moments after both answers finished, too fast to have read them",
  duplicate: "this browser already has a vote on this comparison",
  identity_leak: "an answer named its own model or maker, so the round was not really blind",
  revealed:
    "the names were shown before the vote (blind was off, or an earlier vote revealed them), and ratings count anonymous votes only",
};

/** "1 row: winner GPT-4o" — what a vote wrote, as seed 000 defines the rows. */
export function rowsSummary(vote: VoteView, nameOf: (modelId: string) => string): string {
  const n = vote.rows.length;
  const winners = vote.rows.map((r) => r.winnerModelId).filter((w): w is string => w !== null);
  const head = `${n} ${n === 1 ? "row" : "rows"}`;
  if (!winners.length) return `${head}: no winner`;
  return `${head}: ${winners.length === 1 ? "winner" : "one per model, winners"} ${winners.map(nameOf).join(" and ")}`;
}

/** A judge's or the panel's verdict in the words of the vote buttons. */
export const VERDICT_TEXT: Record<SideVerdict, string> = { left: "A is better", right: "B is better", tie: "Tie" };

/** Judge model ids as typed: split at commas (or spaces), blanks dropped, each once. */
export function parseJudgeIds(raw: string): string[] {
  return [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
}

const MODEL_ID = /^[a-z-]+:\S/;

/** Why one typed model id can't be sent, or null when it reads provider:model-name. */
export function modelIdProblem(raw: string): string | null {
  const id = raw.trim();
  if (!id) return "Name a model, as provider:model-name.";
  return MODEL_ID.test(id) ? null : `“${id}” is not a model id: models are named like provider:model-name.`;
}

/** The ids, or an Error saying which one the server would refuse and why. */
export function checkJudgeIds(ids: string[]): string[] {
  const bad = ids.find((id) => !MODEL_ID.test(id));
  if (bad) throw new Error(`“${bad}” is not a model id: judges are named like provider:model-name.`);
  if (ids.length > MAX_JUDGES) throw new Error(`At most ${MAX_JUDGES} judges at once; you named ${ids.length}.`);
  return ids;
}

/** Why a comma-separated list of judge ids can't be sent, or null when it can (an empty list can). */
export function judgeIdsProblem(raw: string): string | null {
  try {
    checkJudgeIds(parseJudgeIds(raw));
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
