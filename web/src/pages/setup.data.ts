/** The run-setup form's state: chosen models with their own settings, run settings, kept across visits. */
import { createEffect, createSignal } from "solid-js";
import { createStore } from "solid-js/store";
import type { RunDetail } from "../../../worker/shared/run";
import type { CreateRunBody, PickerGroup } from "../lib/api";
import { isPresetId } from "../../../worker/shared/contestant";
import {
  MAX_CONCURRENCY,
  MAX_OUTPUT_TOKENS,
  MAX_REVIEWERS,
  MAX_RUBRIC_WEIGHT,
  MAX_TEMPERATURE,
  MAX_TIMEOUT_MS,
  type ReviewerWeights,
  type SelfReviewMode,
} from "../../../worker/shared/constants";

/** Form fields stay strings until the run is sent, so a half-typed number is never lost. */
export interface Pick {
  id: string;
  temperature: string;
  maxTokens: string;
  systemPrompt: string;
}

/** One row of the rubric editor. */
export interface DimensionRow {
  key: string;
  description: string;
  weight: string;
}

export interface SetupState {
  picks: Pick[];
  /** models added by typing their id that the catalog does not list */
  custom: string[];
  blind: boolean;
  selfReview: SelfReviewMode;
  selfReviewWeight: string;
  autoEvaluate: boolean;
  /** the model that writes the synthesis after the ranking; "" for none */
  synthesis: string;
  reviewerWeights: ReviewerWeights;
  concurrency: string;
  timeoutSeconds: string;
  /** reviewer model ids, comma-separated; "" for the answerers */
  reviewers: string;
  /** the rubric's dimensions; none for the default rubric */
  rubric: DimensionRow[];
  /** the run's category, which picks a rubric's per-category weights; "" for none */
  category: string;
}

const STORAGE_KEY = "quorum.setup";

const defaults = (): SetupState => ({
  picks: [],
  custom: [],
  blind: true,
  selfReview: "exclude",
  selfReviewWeight: "0.5",
  autoEvaluate: true,
  synthesis: "",
  reviewerWeights: "equal",
  concurrency: "4",
  timeoutSeconds: "120",
  reviewers: "",
  rubric: [],
  category: "",
});

export const newDimension = (): DimensionRow => ({ key: "", description: "", weight: "1" });

export const newPick = (id: string): Pick => ({ id, temperature: "", maxTokens: "", systemPrompt: "" });

export function createSetup() {
  let stored: Partial<SetupState> | null = null;
  try {
    stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as Partial<SetupState> | null;
  } catch {
    stored = null;
  }
  const [state, setState] = createStore<SetupState>({ ...defaults(), ...stored });
  createEffect(() => localStorage.setItem(STORAGE_KEY, JSON.stringify(state)));
  return { state, setState, fresh: stored === null, remembered: Boolean(stored?.picks?.length) };
}

/**
 * The question being written: it outlives the page (a token asked for in between remounts it), and is
 * emptied once its run has started.
 */
export const [draftQuestion, setDraftQuestion] = createSignal("");

const asField = (n: number | undefined) => (n === undefined ? "" : String(n));

/** The form filled as an earlier run was set up, for "Run again"; models the catalog doesn't list come back as typed ids. */
export function setupFromRun(detail: RunDetail, listed: (id: string) => boolean, current: SetupState): SetupState {
  const s = detail.run.settings;
  const ids = [...detail.run.models.map((m) => m.id), ...(s.synthesis ? [s.synthesis.modelId] : [])];
  return {
    picks: detail.run.models.map((m) => ({
      id: m.id,
      temperature: asField(m.params?.temperature),
      maxTokens: asField(m.params?.maxTokens),
      systemPrompt: m.params?.systemPrompt ?? "",
    })),
    custom: [...current.custom, ...ids.filter((id) => !listed(id) && !current.custom.includes(id))],
    blind: s.blind,
    selfReview: s.selfReview,
    selfReviewWeight: String(s.selfReviewWeight),
    autoEvaluate: s.autoEvaluate,
    synthesis: s.synthesis?.modelId ?? "",
    reviewerWeights: s.reviewerWeights ?? "equal",
    concurrency: String(s.concurrency),
    timeoutSeconds: String(s.timeoutMs / 1000),
    reviewers: (s.reviewers ?? []).join(", "),
    rubric: (s.rubric?.dimensions ?? []).map((d) => ({ ...d, weight: String(d.weight) })),
    category: s.category ?? "",
  };
}

/** The ids in the reviewers field, in order, each once. */
export const reviewerIds = (field: string) => [...new Set(field.split(/[\s,]+/).filter(Boolean))];

/** Why the reviewers field can't be sent, or null when it can (empty included). */
export function reviewersProblem(field: string): string | null {
  const ids = reviewerIds(field);
  const bad = ids.find((id) => !/^[a-z-]+:\S/.test(id));
  if (bad) return `“${bad}” is not a model id: reviewers are named like provider:model-name.`;
  return ids.length > MAX_REVIEWERS ? `At most ${MAX_REVIEWERS} reviewers; you named ${ids.length}.` : null;
}

/** "3 models: A, B, C · blind · 4 at a time", the choice in one line. */
export function choiceSummary(state: SetupState, nameOf: (id: string) => string): string {
  const n = state.picks.length;
  const names = state.picks.slice(0, 4).map((p) => nameOf(p.id));
  const models = n
    ? `${n} model${n === 1 ? "" : "s"}: ${names.join(", ")}${n > 4 ? ` and ${n - 4} more` : ""}`
    : "No models picked yet";
  return [
    models,
    state.blind ? "blind" : "names shown",
    `${state.concurrency.trim() || "4"} at a time`,
    state.synthesis && `synthesis by ${nameOf(state.synthesis)}`,
    state.reviewerWeights === "calibrated" && "calibrated weights",
    reviewerIds(state.reviewers).length &&
      `${reviewerIds(state.reviewers).length} reviewer${reviewerIds(state.reviewers).length === 1 ? "" : "s"}`,
    state.rubric.length && `rubric of ${state.rubric.length}`,
    !state.autoEvaluate && "no automatic review",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** A number field: empty means "use the default"; anything else must parse and fit. */
export function numberField(
  label: string,
  raw: string,
  min: number,
  max: number,
  integer: boolean,
): number | undefined {
  const text = raw.trim();
  if (text === "") return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
    throw new Error(`${label} must be ${integer ? "a whole number" : "a number"} from ${min} to ${max}.`);
  return n;
}

/** The request body, or an Error naming the field that is wrong. */
export function buildRunBody(state: SetupState, question: string, nameOf: (id: string) => string): CreateRunBody {
  if (!question.trim()) throw new Error("Write a question first.");
  if (!state.picks.length) throw new Error("Pick at least one model.");
  const models = state.picks.map((p) => {
    // A preset brings its own system prompt and parameters.
    if (isPresetId(p.id)) return { id: p.id };
    const name = nameOf(p.id);
    const params = {
      temperature: numberField(`Temperature for ${name}`, p.temperature, 0, MAX_TEMPERATURE, false),
      maxTokens: numberField(`Max tokens for ${name}`, p.maxTokens, 1, MAX_OUTPUT_TOKENS, true),
      systemPrompt: p.systemPrompt.trim() ? p.systemPrompt : undefined,
    };
    const set = Object.values(params).some((v) => v !== undefined);
    return set ? { id: p.id, params } : { id: p.id };
  });
  const timeout = numberField("Timeout", state.timeoutSeconds, 1, MAX_TIMEOUT_MS / 1000, false);
  const reviewers = reviewersProblem(state.reviewers);
  if (reviewers) throw new Error(reviewers);
  return {
    question,
    models,
    settings: {
      blind: state.blind,
      selfReview: state.selfReview,
      selfReviewWeight:
        state.selfReview === "downweight"
          ? numberField("Down-weight factor", state.selfReviewWeight, 0, 1, false)
          : undefined,
      autoEvaluate: state.autoEvaluate,
      synthesis: state.synthesis ? { modelId: state.synthesis } : undefined,
      reviewerWeights: state.reviewerWeights,
      concurrency: numberField("Concurrency", state.concurrency, 1, MAX_CONCURRENCY, true),
      timeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
      reviewers: reviewerIds(state.reviewers).length ? reviewerIds(state.reviewers) : undefined,
      rubric: state.rubric.length ? { dimensions: state.rubric.map(dimensionOf) } : undefined,
      category: state.category.trim() || undefined,
    },
  };
}

/** A rubric row as the request needs it; the server checks the key and the description. */
function dimensionOf(row: DimensionRow, i: number) {
  const name = row.key.trim() || `dimension ${i + 1}`;
  if (!row.key.trim()) throw new Error(`Give dimension ${i + 1} of the rubric a key, or remove it.`);
  const weight = row.weight.trim() === "" ? undefined : Number(row.weight);
  if (weight !== undefined && !(weight > 0 && weight <= MAX_RUBRIC_WEIGHT))
    throw new Error(`The weight of ${name} must be a number above 0 and at most ${MAX_RUBRIC_WEIGHT}.`);
  return { key: row.key.trim(), description: row.description.trim(), weight };
}

export type ModelIdCheck = { ok: true; id: string; provider: PickerGroup } | { ok: false; message: string };

/** Checks a typed model id against the providers the server reported. */
export function checkModelId(raw: string, groups: PickerGroup[]): ModelIdCheck {
  const id = raw.trim();
  const at = id.indexOf(":");
  if (at <= 0 || id.slice(at + 1).trim() === "")
    return { ok: false, message: "A model id looks like provider:model-name, for example openai:gpt-4o-mini." };
  const provider = groups.find((g) => g.id === id.slice(0, at));
  if (!provider)
    return {
      ok: false,
      message: `Unknown provider "${id.slice(0, at)}". Use one of: ${groups.map((g) => g.id).join(", ")}.`,
    };
  if (!provider.available)
    return {
      ok: false,
      message: `${provider.displayName} is not available (${provider.reason ?? "not configured"}), so ${id} can't run.`,
    };
  return { ok: true, id, provider };
}
