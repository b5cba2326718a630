/**
 * Who reviews a run's answers, and which answers each judges. Without `settings.reviewers` the models that answered
 * review (a lone answer only when reviewers may rank their own); with it, the models it lists: a listed model that
 * also answered keeps the self-review rule, a judge-only model judges every answer.
 */
import type { SelfReviewMode } from "../shared/constants";

export interface RosterAnswer {
  id: string;
  label: string;
  modelId: string;
  status: string;
}

export interface RosterEntry {
  /** the review set's id: its reviewer's label, or its place in `settings.reviewers` for a judge-only model */
  id: string;
  modelId: string;
  /** the reviewer's own answer, whatever became of it; null for a judge-only model */
  answerId: string | null;
  /** the labels of the answers it judges, in the answers' order (its shown order is shuffled from it) */
  judged: string[];
}

export function reviewRoster(
  runId: string,
  answers: readonly RosterAnswer[],
  settings: { reviewers?: string[]; selfReview: SelfReviewMode },
): RosterEntry[] {
  const answered = answers.filter((a) => a.status === "done");
  const judgedBy = (own: RosterAnswer | undefined) =>
    answered.filter((a) => !(settings.selfReview === "exclude" && a.id === own?.id)).map((a) => a.label);
  if (!settings.reviewers) {
    // A lone answer has nobody else to judge it unless reviewers may rank their own.
    const reviewers = answered.length > 1 || settings.selfReview === "downweight" ? answered : [];
    return reviewers.map((a) => ({
      id: `${runId}-r${a.label}`,
      modelId: a.modelId,
      answerId: a.id,
      judged: judgedBy(a),
    }));
  }
  const roster = settings.reviewers.map((modelId, place): RosterEntry => {
    const own = answers.find((a) => a.modelId === modelId);
    return own
      ? { id: `${runId}-r${own.label}`, modelId, answerId: own.id, judged: judgedBy(own) }
      : { id: `${runId}-j${place + 1}`, modelId, answerId: null, judged: judgedBy(undefined) };
  });
  // Answering reviewers in label order, as without a list, then the judge-only ones as listed.
  const labelOf = (e: RosterEntry) => answers.find((a) => a.id === e.answerId)?.label ?? null;
  return [
    ...roster.filter((e) => labelOf(e) !== null).sort((x, y) => compareLabels(labelOf(x)!, labelOf(y)!)),
    ...roster.filter((e) => labelOf(e) === null),
  ].filter((e) => e.judged.length > 0);
}

/** A, B, … Z: shorter labels first. */
const compareLabels = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
