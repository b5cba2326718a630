/** What to call an answer or a reviewer: its label while the run is blind, its model once revealed. */
import type { ContestantNames } from "../../../worker/shared/contestant-name";
import type { AnswerView, RunDetail } from "../../../worker/shared/run";
import { shortModelName } from "./format";

export function answerName(a: Pick<AnswerView, "displayName" | "modelId">): string | null {
  return a.displayName ?? (a.modelId ? shortModelName(a.modelId) : null);
}

/** "GPT-4o mini (Answer B)" once revealed, "Answer B" while blind. */
export function labelTitle(detail: RunDetail, label: string): string {
  const a = detail.answers.find((x) => x.label === label);
  const name = a && answerName(a);
  return name ? `${name} (Answer ${label})` : `Answer ${label}`;
}

export function reviewerTitle(
  detail: RunDetail,
  r: { reviewerModelId: string | null; reviewerLabel: string | null },
): string {
  const own = r.reviewerLabel ? detail.answers.find((a) => a.label === r.reviewerLabel) : undefined;
  const name = own ? answerName(own) : r.reviewerModelId ? runModelName(detail, r.reviewerModelId) : null;
  if (name) return name;
  return r.reviewerLabel ? `The author of Answer ${r.reviewerLabel}` : "A judge-only reviewer";
}

/** A contestant's shown name in plain text (a title, a sentence): the response's `names`, else the id as it is. */
export const contestantText = (names: ContestantNames, id: string): string => names[id]?.displayName ?? id;

/** A run's model, reviewer or chair by the name the run gives it (a preset's name and version), else its short id. */
export const runModelName = (detail: RunDetail, id: string): string =>
  detail.run.names?.[id]?.displayName ?? shortModelName(id);
