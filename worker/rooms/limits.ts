/** Concurrency, deadlines and retries for provider calls: the room owns all three (the SDKs' own retries are off). */
import { ProviderError } from "../providers/types";

/** Runs `task` over `items` with at most `limit` in flight at once. */
export async function forEachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A signal that aborts when the parent does or when `ms` have passed, and says which. */
export function deadlineSignal(parent: AbortSignal, ms: number) {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort(new ProviderError("timeout", `no answer within ${formatMs(ms)}`));
    },
    Math.max(0, ms),
  );
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
    },
  };
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

export interface RetryPolicy {
  /** attempts for transient errors (429, 5xx, network), the first included */
  maxAttempts: number;
  baseMs: number;
  maxDelayMs: number;
}

/** Exponential backoff with full jitter; a server's retry-after wins when it asks for longer. */
export function backoffMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | null,
  random = Math.random,
): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Any thrown value as a ProviderError, so the room can decide what to do with it. */
export function asProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof Error && err.name === "AbortError") return new ProviderError("aborted", "the call was cancelled");
  return new ProviderError("network", err instanceof Error ? err.message : String(err));
}
