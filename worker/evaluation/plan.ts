/**
 * The calls of an evaluation, each with an id made of what it is, so the same call always has the same id
 * and a room that restarts can tell which calls are done: every contestant answers every item `repeats` times.
 * Pairwise: each judge compares each judged pair's answers of the same sample in both orders. A judge never judges
 * a pair one of whose answers is its own (its model is the contestant's): such calls are left out and counted. A
 * judge may be a preset: its model judges, with the preset's system prompt before the judge's instructions.
 * Council: each sample of an item is a council round among the contestants, and each reviewer (the judges, or else
 * every contestant) reviews and ranks its answers once.
 * Goal: each judged pair plays one goal battle per sample of an item (no answer calls: the battle is the call). Sides
 * alternate from one battle of a pair to the next (items in order, samples within), so each contestant of a pair is
 * side A in half its battles (one more when their number is odd); which one starts alternates between pairs.
 */
import type { EvaluationMethod } from "../shared/constants";

export interface Contestant {
  id: string;
  /** the model that answers for it (a model id is its own model; a preset names one) */
  modelId: string;
}

export interface PairwisePlan {
  contestants: Contestant[];
  /** a contestant's id; null: every pair is judged */
  baseline: string | null;
  judges: string[];
  /** what a preset judge calls, by its id; a judge not here is a model id */
  judgeTargets?: Record<string, { modelId: string }>;
  repeats: number;
  /** absent: pairwise */
  method?: EvaluationMethod;
}

export interface AnswerCall {
  id: string;
  contestant: string;
  sample: number;
}

export interface JudgeCall {
  id: string;
  judge: string;
  sample: number;
  /** shown as A */
  first: string;
  /** shown as B */
  second: string;
  /** the answer calls it reads */
  answers: [string, string];
}

export interface ReviewCall {
  id: string;
  reviewer: string;
  sample: number;
  /**
   * the reviewer's own answer call when the contestants review each other: as in a council run, a contestant whose
   * answer failed doesn't review
   */
  ownAnswer: string | null;
}

export interface GoalCall {
  id: string;
  sample: number;
  /** side A */
  first: string;
  /** side B */
  second: string;
}

export const answerCallId = (itemId: string, contestant: string, sample: number) =>
  `answer:${itemId}:${contestant}:${sample}`;

export const judgeCallId = (itemId: string, sample: number, judge: string, first: string, second: string) =>
  `judge:${itemId}:${sample}:${judge}:${first}:${second}`;

export const reviewCallId = (itemId: string, sample: number, reviewer: string) =>
  `review:${itemId}:${sample}:${reviewer}`;

export const goalCallId = (itemId: string, sample: number, first: string, second: string) =>
  `goal:${itemId}:${sample}:${first}:${second}`;

/** A council round's reviewers: the judges, judge-only as a run's `settings.reviewers`; else the contestants. */
export const reviewersOf = (plan: PairwisePlan): string[] =>
  plan.judges.length ? plan.judges : plan.contestants.map((c) => c.id);

/** The pairs judged: each other contestant with the baseline (the baseline first), else every pair once. */
export function judgedPairs(plan: PairwisePlan): [string, string][] {
  const ids = plan.contestants.map((c) => c.id);
  if (plan.baseline !== null) {
    const baseline = plan.baseline;
    return ids.filter((id) => id !== baseline).map((id): [string, string] => [baseline, id]);
  }
  return ids.flatMap((x, i) => ids.slice(i + 1).map((y): [string, string] => [x, y]));
}

/** The model a judge calls: a preset judge's model, or the judge's own id. */
export const judgeModelOf = (plan: Pick<PairwisePlan, "judgeTargets">, judge: string) =>
  plan.judgeTargets?.[judge]?.modelId ?? judge;

/** True when `judge` wrote one of the pair's answers (the same model, whatever preset either side wears). */
function judgesItself(plan: PairwisePlan, judge: string, pair: [string, string]): boolean {
  const model = judgeModelOf(plan, judge);
  return plan.contestants.some((c) => pair.includes(c.id) && (c.id === judge || c.modelId === model));
}

/** A goal evaluation's battles on item number `index` (0-based: it sets which side each contestant plays). */
export function goalCallsOfItem(plan: PairwisePlan, itemId: string, index: number): GoalCall[] {
  return judgedPairs(plan).flatMap(([x, y], pair) =>
    Array.from({ length: plan.repeats }, (_, sample): GoalCall => {
      const [first, second] = (index * plan.repeats + sample + pair) % 2 === 0 ? [x, y] : [y, x];
      return { id: goalCallId(itemId, sample, first, second), sample, first, second };
    }),
  );
}

/**
 * Every call one item (number `index` of its set) needs, answers first; `selfSkipped` counts the judge calls left
 * out. A goal evaluation's item has only its battles (`goals`).
 */
export function callsOfItem(
  plan: PairwisePlan,
  itemId: string,
  index = 0,
): { answers: AnswerCall[]; judges: JudgeCall[]; reviews: ReviewCall[]; goals: GoalCall[]; selfSkipped: number } {
  if (plan.method === "goal")
    return { answers: [], judges: [], reviews: [], goals: goalCallsOfItem(plan, itemId, index), selfSkipped: 0 };
  const answers: AnswerCall[] = [];
  const judges: JudgeCall[] = [];
  const reviews: ReviewCall[] = [];
  let selfSkipped = 0;
  const pairs = plan.method === "council" ? [] : judgedPairs(plan);
  const reviewers = plan.method === "council" ? reviewersOf(plan) : [];
  for (let sample = 0; sample < plan.repeats; sample++) {
    for (const c of plan.contestants)
      answers.push({ id: answerCallId(itemId, c.id, sample), contestant: c.id, sample });
    for (const reviewer of reviewers)
      reviews.push({
        id: reviewCallId(itemId, sample, reviewer),
        reviewer,
        sample,
        ownAnswer: plan.judges.length ? null : answerCallId(itemId, reviewer, sample),
      });
    for (const judge of plan.judges)
      for (const pair of pairs) {
        if (judgesItself(plan, judge, pair)) {
          selfSkipped += 2;
          continue;
        }
        for (const [first, second] of [pair, [pair[1], pair[0]]])
          judges.push({
            id: judgeCallId(itemId, sample, judge, first, second),
            judge,
            sample,
            first,
            second,
            answers: [answerCallId(itemId, first, sample), answerCallId(itemId, second, sample)],
          });
      }
  }
  return { answers, judges, reviews, goals: [], selfSkipped };
}
