/** Redact mode at the edge: a request's texts are masked before a room stores them or sends them anywhere. */
import type { CreateComparisonInput, CreateRunInput } from "../shared/requests";
import { addRedactions, redact, type Redactions } from "../shared/redact";

export const redactMode = (env: Env) => /^(true|1|yes|on)$/i.test(env.QUORUM_REDACT?.trim() ?? "");

/** Masks each text that is set, adding what it masked to `tally`. */
function masker(tally: { counts: Redactions }) {
  return <T extends string | undefined>(text: T): T => {
    if (text === undefined) return text;
    const r = redact(text);
    tally.counts = addRedactions(tally.counts, r.redactions);
    return r.text as T;
  };
}

/** The question and every system prompt (the run's and each model's), masked. */
export function redactRun(input: CreateRunInput): { input: CreateRunInput; redactions: Redactions } {
  const tally = { counts: {} };
  const mask = masker(tally);
  const masked: CreateRunInput = {
    ...input,
    question: mask(input.question),
    models: input.models.map((m) => (m.params?.systemPrompt === undefined ? m : { ...m, params: { ...m.params, systemPrompt: mask(m.params.systemPrompt) } })),
    settings: { ...input.settings, systemPrompt: mask(input.settings.systemPrompt) },
  };
  if (masked.settings.systemPrompt === undefined) delete masked.settings.systemPrompt;
  return { input: masked, redactions: tally.counts };
}

/** The prompt and the system prompt, masked. */
export function redactComparison(input: CreateComparisonInput): { input: CreateComparisonInput; redactions: Redactions } {
  const tally = { counts: {} };
  const mask = masker(tally);
  const params = input.params && (input.params.systemPrompt === undefined ? input.params : { ...input.params, systemPrompt: mask(input.params.systemPrompt) });
  return { input: { ...input, prompt: mask(input.prompt), ...(params ? { params } : {}) }, redactions: tally.counts };
}

export function redactMessage(content: string): { content: string; redactions: Redactions } {
  const r = redact(content);
  return { content: r.text, redactions: r.redactions };
}
