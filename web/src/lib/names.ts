/** What to call an answer or a reviewer: its label while the run is blind, its model once revealed. */
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
  const name = own ? answerName(own) : r.reviewerModelId ? shortModelName(r.reviewerModelId) : null;
  if (name) return name;
  return r.reviewerLabel ? `The author of Answer ${r.reviewerLabel}` : "A judge-only reviewer";
}
