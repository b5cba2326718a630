/** Test helpers for evaluations: a prompt set written straight to D1, starting one, and waiting for its end. */
import { env } from "cloudflare:test";
import type { InferRequestType, InferResponseType } from "hono/client";
import { client, ok } from "./client";
import { poll } from "./stub-client";

export type CreateEvaluationBody = InferRequestType<typeof client.evaluations.$post>["json"];
export type EvaluationDetail = InferResponseType<(typeof client.evaluations)[":id"]["$get"], 200>;

/** A prompt set of `prompts` (items `q1`, `q2`…), written to D1 directly. */
export async function promptSet(
  id: string,
  prompts: string[],
  extra: { category?: string; reference?: string } = {},
): Promise<string> {
  await env.DB.prepare("INSERT INTO prompt_sets (id, name, items) VALUES (?, ?, ?)")
    .bind(id, `set ${id}`, prompts.length)
    .run();
  await env.DB.batch(
    prompts.map((prompt, i) =>
      env.DB.prepare(
        "INSERT INTO prompt_set_items (set_id, position, item_id, prompt, category, reference) VALUES (?, ?, ?, ?, ?, ?)",
      ).bind(id, i, `q${i + 1}`, prompt, extra.category ?? null, extra.reference ?? null),
    ),
  );
  return id;
}

export async function startEvaluation(body: CreateEvaluationBody) {
  return ok(client.evaluations.$post({ json: body }));
}

export const getEvaluation = (id: string): Promise<EvaluationDetail> =>
  ok(client.evaluations[":id"].$get({ param: { id } }));

/** Polls the evaluation until `done` holds of it; throws after `timeoutMs`. */
export const evaluationUntil = (
  id: string,
  done: (e: EvaluationDetail) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<EvaluationDetail> => poll(() => getEvaluation(id), done, timeoutMs, what);

export const ended = (id: string, timeoutMs = 15_000) =>
  evaluationUntil(
    id,
    (e) => ["completed", "cancelled", "failed"].includes(e.status),
    "the evaluation's end",
    timeoutMs,
  );

export const rowsOf = (id: string) => ok(client.evaluations[":id"].rows.$get({ param: { id } }));

/** The evaluation's `eval` battles, as D1 holds them. */
export async function evalBattles(id: string) {
  const { results } = await env.DB.prepare(
    "SELECT model_a AS a, model_b AS b, winner, judge, question_id AS item FROM battles WHERE source = 'eval' AND evaluation_id = ?",
  )
    .bind(id)
    .all<{ a: string; b: string; winner: string; judge: string; item: string }>();
  return results;
}
