/** One streamed reply from any model under the room's rules: used for council answers and arena sides alike. */
import { costOf } from "../providers/pricing";
import { createProvider, parseModelId } from "../providers/registry";
import { ProviderError, type ChatMessage, type Generation, type ProviderErrorKind } from "../providers/types";
import { callModel } from "./call-model";
import { reservedAllowance } from "../council/estimate";
import type { RetryPolicy } from "./limits";

export interface ReplyRequest {
  modelId: string;
  messages: ChatMessage[];
  system?: string;
  temperature?: number;
  maxTokens?: number;
}

export interface ReplyRules {
  env: Env;
  /** aborts when the work is cancelled or superseded */
  cancel: AbortSignal;
  policy: RetryPolicy;
  timeoutMs: number;
}

export interface ReplyHooks {
  /** an attempt starts: whatever streamed before it is void */
  onAttempt(attempt: number): void;
  onDelta(text: string): void;
  /** a transient failure is retried after `delayMs` (an evaluation backs its whole provider off on a 429) */
  onRetry?(error: ProviderError, delayMs: number): void;
}

interface Timing {
  /** from the start of the attempt that ended it */
  latencyMs: number;
  attempts: number;
}

export type Reply =
  | (Timing & { ok: true; generation: Generation; costUsd: number | null; droppedParams: string[] })
  | (Timing & { ok: false; error: string; kind: ProviderErrorKind | null });

export async function streamReply(rules: ReplyRules, req: ReplyRequest, hooks: ReplyHooks): Promise<Reply> {
  let started = Date.now();
  let attempts = 0;
  try {
    const parsed = parseModelId(req.modelId);
    if (!parsed)
      throw new ProviderError("bad_request", `"${req.modelId}" is not a model id of the form provider:model-name.`);
    const provider = createProvider(parsed.provider, rules.env);
    const result = await callModel<Generation>(
      { cancel: rules.cancel, timeoutMs: rules.timeoutMs, policy: rules.policy },
      (signal, dropped) =>
        provider.generate(
          {
            model: parsed.name,
            messages: req.messages,
            system: req.system,
            temperature: dropped.has("temperature") ? undefined : req.temperature,
            maxTokens: dropped.has("maxTokens") ? undefined : (req.maxTokens ?? reservedAllowance(rules.env)),
            signal,
          },
          (text) => {
            if (!signal.aborted) hooks.onDelta(text);
          },
        ),
      {
        onAttempt: (attempt) => {
          started = Date.now();
          attempts = attempt;
          hooks.onAttempt(attempt);
        },
        onRetry: hooks.onRetry,
      },
    );
    const gen = result.value;
    // Nothing to read, review or vote on: an empty reply is a failed one, and says why.
    if (!gen.text.trim())
      throw new ProviderError(
        "empty",
        gen.truncated
          ? "The model returned no text before reaching its output limit. Raise maxTokens, then retry."
          : "The model returned no text. Retry it, or leave it out.",
      );
    return {
      ok: true,
      generation: gen,
      costUsd: costOf(rules.env, req.modelId, gen.tokensIn, gen.tokensOut),
      droppedParams: result.dropped,
      latencyMs: Date.now() - started,
      attempts: result.attempts,
    };
  } catch (err) {
    const kind = err instanceof ProviderError ? err.kind : null;
    return {
      ok: false,
      error: err instanceof Error ? err.message : String(err),
      kind,
      latencyMs: Date.now() - started,
      attempts,
    };
  }
}
