/** Test helpers for the spend caps: requests with settings of their own, and the day's figures. */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import type { InferResponseType } from "hono/client";
import worker from "../../worker/index";
import { client, ok } from "./client";
import { poll } from "./stub-client";

export type Spend = InferResponseType<typeof client.spend.$get, 200>;

export interface Refusal {
  error: {
    code: string;
    message: string;
    details: {
      spentUsd: number;
      reservedUsd: number;
      capUsd: number;
      estimateUsd: number;
      resetsAt: number;
      unpriced?: string[];
    };
  };
}

/** A request to the Worker with settings of its own, as a deployment with these variables would get it (its rooms keep the test's own). */
export async function withSettings(
  path: string,
  settings: Record<string, string>,
  init: { method?: string; json?: unknown } = {},
): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://127.0.0.1/api${path}`, {
      method: init.method ?? "GET",
      headers: init.json === undefined ? {} : { "content-type": "application/json" },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    }),
    { ...env, ...settings },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

export const spendNow = (): Promise<Spend> => ok(client.spend.$get());

/** Waits until the day's set-aside figure is `reservedUsd` (holds settle a moment after the work they covered announced its end). */
export const reservedSettles = (reservedUsd: number, timeoutMs = 5_000): Promise<Spend> =>
  poll(
    spendNow,
    (s) => Math.abs(s.reservedUsd - reservedUsd) < 1e-12,
    timeoutMs,
    `the day's reserved figure to be ${reservedUsd}`,
  );
