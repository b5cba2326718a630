/** How each live event changes the page's copy of a run. Mutates a draft (used inside Solid's `produce`). */
import type { RunEvent } from "../../../worker/shared/events";
import type { RunDetail, ReviewerView } from "../../../worker/shared/run";
import { REPLY_NOT_STARTED, REVIEWER_NOT_STARTED, runTotals, TERMINAL_STATUSES } from "../../../worker/shared/run";

export const isTerminal = (detail: RunDetail) => TERMINAL_STATUSES.includes(detail.run.status);

function reviewer(draft: RunDetail, id: string, label: string | null, modelId: string | null): ReviewerView {
  let r = draft.reviewers.find((x) => x.id === id);
  if (!r) {
    r = { ...REVIEWER_NOT_STARTED, id, reviewerModelId: modelId, reviewerLabel: label };
    draft.reviewers.push(r);
    r = draft.reviewers[draft.reviewers.length - 1];
  }
  if (modelId) r.reviewerModelId = modelId;
  if (label) r.reviewerLabel = label;
  return r;
}

/** Applies one event (never a snapshot: that replaces the whole state), totals included. */
export function applyEvent(draft: RunDetail, e: Exclude<RunEvent, { type: "snapshot" }>): void {
  applyOne(draft, e);
  draft.totals = runTotals([
    ...draft.answers,
    ...draft.reviewers,
    ...(draft.synthesis ? [draft.synthesis] : []),
    ...(draft.earlier ? [draft.earlier] : []),
  ]);
}

function applyOne(draft: RunDetail, e: Exclude<RunEvent, { type: "snapshot" }>): void {
  const answer = "answerId" in e ? draft.answers.find((a) => a.id === e.answerId) : undefined;
  const synthesis = draft.synthesis;
  switch (e.type) {
    case "synthesis.started":
      if (synthesis) Object.assign(synthesis, REPLY_NOT_STARTED, { status: "streaming" });
      return;
    case "synthesis.delta":
      if (synthesis) synthesis.text += e.text;
      return;
    case "synthesis.completed":
      if (synthesis)
        Object.assign(synthesis, {
          status: "done",
          text: e.text,
          latencyMs: e.latencyMs,
          tokensIn: e.tokensIn,
          tokensOut: e.tokensOut,
          costUsd: e.costUsd,
          truncated: e.truncated,
          error: null,
        });
      return;
    case "synthesis.failed":
      if (synthesis)
        Object.assign(synthesis, {
          status: "failed",
          error: e.error,
          text: e.text,
          latencyMs: e.latencyMs,
          truncated: e.text.trim().length > 0,
        });
      return;
    case "run.status":
      if (isTerminal(draft) && !TERMINAL_STATUSES.includes(e.status)) {
        // A retry or a new evaluation of an ended run: the room starts the reviews over.
        draft.reviewers = [];
        draft.reviews = [];
        draft.aggregation = null;
        if (draft.synthesis) Object.assign(draft.synthesis, REPLY_NOT_STARTED);
      }
      draft.run.status = e.status;
      draft.run.error = null;
      if (e.earlier !== undefined) draft.earlier = e.earlier;
      return;
    case "answer.started":
      if (!answer) return;
      Object.assign(answer, {
        status: "streaming",
        text: "",
        error: null,
        truncated: false,
        latencyMs: null,
        tokensIn: null,
        tokensOut: null,
        costUsd: null,
      });
      if (e.modelId) answer.modelId = e.modelId;
      return;
    case "answer.delta":
      if (answer) answer.text += e.text;
      return;
    case "answer.completed":
      if (!answer) return;
      Object.assign(answer, {
        status: "done",
        text: e.text,
        latencyMs: e.latencyMs,
        tokensIn: e.tokensIn,
        tokensOut: e.tokensOut,
        costUsd: e.costUsd,
        truncated: e.truncated,
        finishReason: e.finishReason,
        error: null,
      });
      if (e.modelId) answer.modelId = e.modelId;
      return;
    case "answer.failed":
      if (!answer) return;
      Object.assign(answer, {
        status: "failed",
        error: e.error,
        text: e.text,
        truncated: e.text.trim().length > 0,
        latencyMs: e.latencyMs,
      });
      if (e.modelId) answer.modelId = e.modelId;
      return;
    case "review.started":
      Object.assign(reviewer(draft, e.reviewSetId, e.reviewerLabel, e.reviewerModelId), {
        status: "running",
        error: null,
      });
      return;
    case "review.completed": {
      const { ranking, confidence, weight, rawOutput, latencyMs, tokensIn, tokensOut, costUsd } = e;
      Object.assign(reviewer(draft, e.reviewSetId, e.reviewerLabel, e.reviewerModelId), {
        status: "done",
        error: null,
        ranking,
        confidence,
        weight,
        rawOutput,
        latencyMs,
        tokensIn,
        tokensOut,
        costUsd,
      });
      draft.reviews = draft.reviews.filter((v) => v.reviewSetId !== e.reviewSetId);
      for (const v of e.reviews)
        draft.reviews.push({
          id: v.id,
          reviewSetId: e.reviewSetId,
          reviewerModelId: e.reviewerModelId,
          reviewerLabel: e.reviewerLabel,
          targetAnswerId: v.targetAnswerId,
          targetLabel: v.targetLabel,
          scores: v.scores,
          critique: v.critique,
          ranking: e.ranking,
        });
      return;
    }
    case "review.failed": {
      const { error, rawOutput, latencyMs, tokensIn, tokensOut, costUsd } = e;
      Object.assign(reviewer(draft, e.reviewSetId, e.reviewerLabel, e.reviewerModelId), {
        status: "failed",
        error,
        rawOutput,
        latencyMs,
        tokensIn,
        tokensOut,
        costUsd,
      });
      return;
    }
    case "aggregation.completed":
      draft.aggregation = e.aggregation;
      return;
    case "run.completed":
      draft.run.status = e.status;
      reveal(draft, e.reveal, e.unblinded);
      return;
    case "run.failed":
      draft.run.status = "failed";
      draft.run.error = e.error;
      reveal(draft, e.reveal, e.unblinded);
      return;
    case "watchdog":
      if (e.action === "stopped") draft.run.error = e.message;
      return;
    case "run.cancelled":
      draft.run.status = "cancelled";
      for (const a of draft.answers) if (a.status === "pending" || a.status === "streaming") a.status = "cancelled";
      for (const r of draft.reviewers) if (r.status === "pending" || r.status === "running") r.status = "cancelled";
      if (synthesis && (synthesis.status === "pending" || synthesis.status === "streaming"))
        synthesis.status = "cancelled";
      reveal(draft, e.reveal, e.unblinded);
      return;
  }
}

type EndEvent = Extract<RunEvent, { type: "run.completed" }>;

/** Puts names next to labels once the run has ended, with what a blind run kept from them until then. */
function reveal(draft: RunDetail, names: EndEvent["reveal"], unblinded: EndEvent["unblinded"]) {
  if (unblinded) {
    for (const u of unblinded.answers) {
      const a = draft.answers.find((x) => x.id === u.answerId);
      if (a)
        Object.assign(a, {
          costUsd: u.costUsd,
          finishReason: u.finishReason,
          droppedParams: u.droppedParams,
          error: u.error,
        });
    }
    for (const u of unblinded.reviewers) {
      const r = draft.reviewers.find((x) => x.id === u.reviewSetId);
      if (r)
        Object.assign(r, {
          reviewerModelId: u.reviewerModelId,
          costUsd: u.costUsd,
          error: u.error,
          weight: u.weight,
        });
      for (const v of draft.reviews.filter((x) => x.reviewSetId === u.reviewSetId))
        v.reviewerModelId = u.reviewerModelId;
    }
    draft.aggregation = unblinded.aggregation;
  }
  const byLabel = new Map(names.map((r) => [r.label, r]));
  const modelOf = (label: string | null) => (label ? byLabel.get(label)?.modelId : undefined);
  for (const a of draft.answers) {
    const who = byLabel.get(a.label);
    if (who) Object.assign(a, { modelId: who.modelId, displayName: who.displayName });
  }
  for (const r of draft.reviewers) r.reviewerModelId = modelOf(r.reviewerLabel) ?? r.reviewerModelId;
  for (const v of draft.reviews) v.reviewerModelId = modelOf(v.reviewerLabel) ?? v.reviewerModelId;
  for (const entry of draft.aggregation?.finalRanking ?? []) entry.modelId = modelOf(entry.label) ?? entry.modelId;
}
