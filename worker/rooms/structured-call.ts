/** One structured-output call under the room's rules; output that fails `parse` is asked for once more. */
import { createProvider, parseModelId } from "../providers/registry";
import { ProviderError, type ProviderErrorKind, type ReviewOutput } from "../providers/types";
import { callModel } from "./call-model";
import type { ReplyRules } from "./reply";

export interface StructuredRequest {
  modelId: string;
  system: string;
  prompt: string;
  schema: Record<string, unknown>;
  temperature?: number;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Tokens of every round that reported them (null when none did), so what a call cost can be kept. */
export interface Usage {
  tokensIn: number | null;
  tokensOut: number | null;
}

/** Why a structured call failed: the provider's kind of error, or output that missed the format twice. */
export type StructuredErrorKind = ProviderErrorKind | "invalid_output";

export type Structured<T> = (
  | { ok: true; value: T; raw: string }
  | { ok: false; error: string; kind: StructuredErrorKind | null; raw: string | null }
) & { usage: Usage };

export interface StructuredOptions {
  /** an attempt at the call starts (retries and a second round included) */
  onAttempt?(attempt: number): void;
  /** a transient failure is about to be retried after `delayMs` */
  onRetry?(error: ProviderError, delayMs: number): void;
  /** the failure's wording when the output missed the format twice, from the last parse error */
  invalid?(error: string): string;
}

const invalidTwice = (error: string) => `The output was invalid twice: ${error}.`;

export async function askStructured<T>(
  rules: ReplyRules,
  req: StructuredRequest,
  parse: (raw: string) => Parsed<T>,
  options: StructuredOptions = {},
): Promise<Structured<T>> {
  let raw: string | null = null;
  const usage: Usage = { tokensIn: null, tokensOut: null };
  const add = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b);
  try {
    const parsedId = parseModelId(req.modelId);
    if (!parsedId)
      throw new ProviderError("bad_request", `"${req.modelId}" is not a model id of the form provider:model-name.`);
    const provider = createProvider(parsedId.provider, rules.env);
    let error = "";
    for (let round = 0; round < 2; round++) {
      const result = await callModel<ReviewOutput>(
        { cancel: rules.cancel, timeoutMs: rules.timeoutMs, policy: rules.policy },
        (signal, dropped) =>
          provider.review({
            model: parsedId.name,
            system: req.system,
            prompt: req.prompt,
            schema: req.schema,
            temperature: dropped.has("temperature") ? undefined : req.temperature,
            signal,
          }),
        { onAttempt: options.onAttempt, onRetry: options.onRetry },
      );
      raw = result.value.raw;
      usage.tokensIn = add(usage.tokensIn, result.value.tokensIn);
      usage.tokensOut = add(usage.tokensOut, result.value.tokensOut);
      const parsed = parse(raw);
      if (parsed.ok) return { ok: true, value: parsed.value, raw, usage };
      error = parsed.error;
    }
    return { ok: false, error: (options.invalid ?? invalidTwice)(error), kind: "invalid_output", raw, usage };
  } catch (err) {
    const kind = err instanceof ProviderError ? err.kind : null;
    return { ok: false, error: err instanceof Error ? err.message : String(err), kind, raw, usage };
  }
}
