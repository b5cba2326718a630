/**
 * The label pass (a cron runs one a minute): takes the prompts queued by a comparison's first vote or by an import,
 * oldest first, gives each its rule labels and, when QUORUM_CLASSIFIER names a model, asks that model for the
 * Arena's categories (labels/classifier.ts) through the provider layer, its cost kept as `classifier` spend.
 * Off every request's path; at most PASS_PROMPTS prompts a pass, CLASSIFIER_CONCURRENCY calls at once. Rule labels
 * are written at once; a prompt leaves the queue when the classifier answered, or failed in a way asking again
 * won't mend (its answer invalid twice, a refused request); otherwise a later pass asks again.
 */
import {
  finishPromptWrites,
  type LabelRow,
  pendingPrompts,
  type PendingPrompt,
  requeuePromptWrites,
} from "../db/label-queries";
import { openDb } from "../db/queries";
import { daySpend, insertSpendEntry } from "../db/spend-queries";
import { CLASSIFIER_SCHEMA, CLASSIFIER_SYSTEM, classifierPrompt, parseClassifierOutput } from "../labels/classifier";
import { ruleLabels } from "../labels/rules";
import { costOf } from "../providers/pricing";
import { redact } from "../redaction/redact";
import { LABEL_RULE_SOURCE } from "../shared/constants";
import { settings } from "../shared/config";
import { forEachLimited } from "./limits";
import { logCall, logError } from "./log";
import { askStructured, type StructuredErrorKind } from "./structured-call";

/** Prompts one pass takes at most: with a pass a minute, 50 classifier calls a minute. */
export const PASS_PROMPTS = 50;
const CLASSIFIER_CONCURRENCY = 4;
const DAY_MS = 86_400_000;

export interface LabelPass {
  /** prompts labelled and taken off the queue */
  labelled: number;
  /** classifier calls that answered */
  classified: number;
  /** classifier calls that failed (the prompt keeps its rule labels) */
  failed: number;
  /** why the classifier was not asked this pass, when it wasn't though one is set */
  skipped: string | null;
}

export async function labelPass(env: Env, now = Date.now()): Promise<LabelPass> {
  const { arena, spend, retry } = settings(env);
  const db = openDb(env.DB);
  const pass: LabelPass = { labelled: 0, classified: 0, failed: 0, skipped: null };
  const queued = await pendingPrompts(db, PASS_PROMPTS);
  if (!queued.length) return pass;
  let classifier = arena.classifier;
  if (classifier && spend.dayUsd !== null) {
    const day = await daySpend(db, Math.floor(now / DAY_MS) * DAY_MS, now);
    if (day.spentUsd + day.reservedUsd >= spend.dayUsd) {
      // Rule labels cost nothing: they go on; the classifier's wait for tomorrow's budget in the next passes.
      pass.skipped = "the day's spend cap (QUORUM_MAX_DAY_USD) is reached";
      classifier = null;
    }
  }
  const rules = {
    env,
    cancel: new AbortController().signal,
    policy: { ...retry, maxDelayMs: 30_000 },
    timeoutMs: arena.timeoutMs,
  };
  await forEachLimited(queued, CLASSIFIER_CONCURRENCY, async (p) => {
    const labels: LabelRow[] = ruleLabels({ text: p.text, turns: p.turns, userTokens: null, language: null }).map(
      (label) => ({ ref: p.ref, label, source: LABEL_RULE_SOURCE }),
    );
    // Without an answer it may still get (the cap, a provider down or unreachable), the prompt goes back in the queue.
    let done = !(arena.classifier && p.text);
    if (classifier && p.text) {
      const asked = await classify(env, rules, classifier, p);
      if (asked.ok) {
        pass.classified++;
        labels.push(...asked.labels.map((label) => ({ ref: p.ref, label, source: classifier })));
      } else pass.failed++;
      done = asked.ok || !asked.retry;
    }
    try {
      await env.DB.batch(
        done ? finishPromptWrites(env.DB, p.ref, labels) : requeuePromptWrites(env.DB, p.ref, labels, now),
      );
      if (done) pass.labelled++;
    } catch (err) {
      logError("label pass", err);
    }
  });
  return pass;
}

/** Failures a later pass may not meet: the provider's limits, outages, its network, its key or configuration. */
const RETRIED = new Set<StructuredErrorKind | null>(["rate_limit", "server", "network", "timeout", "auth", null]);

/**
 * The classifier's labels for the prompt, its cost kept; when it failed (logged), whether a later pass should ask
 * again (an answer that was invalid twice, or a refused request, is not asked for again).
 */
async function classify(
  env: Env,
  rules: Parameters<typeof askStructured>[0],
  modelId: string,
  p: PendingPrompt,
): Promise<{ ok: true; labels: string[] } | { ok: false; retry: boolean }> {
  const started = Date.now();
  // An imported conversation was never masked at the edge (a typed prompt was): redact mode masks it here.
  const text = settings(env).redact ? (await redact(p.text ?? "")).text : (p.text ?? "");
  const asked = await askStructured(
    rules,
    {
      modelId,
      system: CLASSIFIER_SYSTEM,
      prompt: classifierPrompt(text),
      schema: CLASSIFIER_SCHEMA,
      temperature: 0,
    },
    parseClassifierOutput,
  );
  const { tokensIn, tokensOut } = asked.usage;
  // Paid for whatever the answer was: a classifier call has no row of its own to carry its cost.
  if (tokensIn || tokensOut)
    await insertSpendEntry(openDb(env.DB), {
      kind: "classifier",
      itemId: p.ref,
      modelId,
      tokensIn,
      tokensOut,
      costUsd: costOf(env, modelId, tokensIn ?? 0, tokensOut ?? 0),
      completedAt: Date.now(),
    });
  logCall(env, {
    run: p.ref,
    step: "classifier",
    model: modelId,
    status: asked.ok ? "done" : "failed",
    latencyMs: Date.now() - started,
    attempts: 1,
    error: asked.ok ? null : asked.error,
  });
  return asked.ok ? { ok: true, labels: asked.value } : { ok: false, retry: RETRIED.has(asked.kind) };
}
