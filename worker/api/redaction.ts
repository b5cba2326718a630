/** Redact mode at the edge: every text a person typed is masked before a room stores it or sends it anywhere. */

import type { CreateComparisonInput, CreateRunInput } from "../shared/requests";
import { addRedactions, type Redactions } from "../shared/redact";
import { redact } from "../redaction/redact";
import { settings } from "../shared/config";

export const redactMode = (env: Env) => settings(env).redact;

/** Masks each text that is set, adding what it masked to `tally`. */
function masker(tally: { counts: Redactions }) {
  return async <T extends string | undefined>(text: T): Promise<T> => {
    if (text === undefined) return text;
    const r = await redact(text);
    tally.counts = addRedactions(tally.counts, r.redactions);
    return r.text as T;
  };
}

/** The question and every system prompt (the run's and each model's), masked. */
export async function redactRun(input: CreateRunInput): Promise<{ input: CreateRunInput; redactions: Redactions }> {
  const tally = { counts: {} };
  const mask = masker(tally);
  const masked: CreateRunInput = {
    ...input,
    question: await mask(input.question),
    models: await Promise.all(
      input.models.map(async (m) =>
        m.params?.systemPrompt === undefined
          ? m
          : { ...m, params: { ...m.params, systemPrompt: await mask(m.params.systemPrompt) } },
      ),
    ),
    settings: { ...input.settings, systemPrompt: await mask(input.settings.systemPrompt) },
  };
  if (masked.settings.systemPrompt === undefined) delete masked.settings.systemPrompt;
  return { input: masked, redactions: tally.counts };
}

/** The prompt, the category, the system prompt and the context, masked. */
export async function redactComparison(
  input: CreateComparisonInput,
): Promise<{ input: CreateComparisonInput; redactions: Redactions }> {
  const tally = { counts: {} };
  const mask = masker(tally);
  const params =
    input.params &&
    (input.params.systemPrompt === undefined
      ? input.params
      : { ...input.params, systemPrompt: await mask(input.params.systemPrompt) });
  const category = await mask(input.category);
  const context =
    input.context && (await Promise.all(input.context.map(async (m) => ({ ...m, content: await mask(m.content) }))));
  return {
    input: {
      ...input,
      prompt: await mask(input.prompt),
      ...(category === undefined ? {} : { category }),
      ...(params ? { params } : {}),
      ...(context ? { context } : {}),
    },
    redactions: tally.counts,
  };
}

export async function redactMessage(content: string): Promise<{ content: string; redactions: Redactions }> {
  const r = await redact(content);
  return { content: r.text, redactions: r.redactions };
}
