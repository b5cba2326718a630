/** One provider call under the room's rules: a deadline, retries of transient errors, and dropping parameters a model rejects. */
import { ProviderError } from "../providers/types";
import { asProviderError, backoffMs, deadlineSignal, formatMs, pause, type RetryPolicy } from "./limits";

export type DroppableParam = "temperature" | "maxTokens";

export interface CallRules {
  /** aborts when the run is cancelled */
  cancel: AbortSignal;
  /** the whole call, retries included, must finish within this */
  timeoutMs: number;
  policy: RetryPolicy;
}

export interface CallHooks {
  onAttempt?(attempt: number): void;
  onRetry?(error: ProviderError, delayMs: number): void;
}

export interface CallResult<T> {
  value: T;
  attempts: number;
  dropped: DroppableParam[];
}

/** Calls `attempt` until it succeeds or fails for good; throws a ProviderError whose message a person can act on. */
export async function callModel<T>(
  rules: CallRules,
  attempt: (signal: AbortSignal, dropped: ReadonlySet<DroppableParam>) => Promise<T>,
  hooks: CallHooks = {},
): Promise<CallResult<T>> {
  const started = Date.now();
  const dropped = new Set<DroppableParam>();
  let attempts = 0;
  let transientFailures = 0;
  for (;;) {
    const remaining = rules.timeoutMs - (Date.now() - started);
    if (remaining <= 0) throw timeoutError(rules.timeoutMs);
    attempts++;
    hooks.onAttempt?.(attempts);
    const deadline = deadlineSignal(rules.cancel, remaining);
    try {
      return { value: await attempt(deadline.signal, dropped), attempts, dropped: [...dropped] };
    } catch (raw) {
      if (rules.cancel.aborted) throw new ProviderError("aborted", "the run was cancelled");
      const err = deadline.timedOut() ? timeoutError(rules.timeoutMs) : asProviderError(raw);
      if (err.kind === "unsupported_param" && err.param && !dropped.has(err.param)) {
        dropped.add(err.param);
        continue;
      }
      if (!err.retryable || ++transientFailures >= rules.policy.maxAttempts) throw err;
      const delay = backoffMs(rules.policy, transientFailures, err.retryAfterMs);
      if (Date.now() - started + delay >= rules.timeoutMs) throw err;
      hooks.onRetry?.(err, delay);
      await pause(delay, rules.cancel).catch(() => {
        throw new ProviderError("aborted", "the run was cancelled");
      });
    } finally {
      deadline.dispose();
    }
  }
}

function timeoutError(ms: number) {
  return new ProviderError(
    "timeout",
    `Timed out: no complete answer within ${formatMs(ms)}. Raise timeoutMs in the run settings for slow models.`,
  );
}
