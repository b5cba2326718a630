/**
 * Run and comparison ids carry a tag, `<uuid>-<tag>`, signed by the server (signing.ts). Any touch of a
 * SQLite-backed Durable Object creates its storage, and D1 may not hold an item yet (a comparison's row comes a
 * moment after its POST answered) or any more (archived), so a route checks the tag before it addresses a room:
 * an id the server never made is a 404 that creates and writes nothing.
 */
import type { Context } from "hono";
import { comparisonExists } from "../db/arena-queries";
import { evaluationExists } from "../db/evaluation-queries";
import { goalBattleExists } from "../db/goal-battle-queries";
import { openDb, runStatusOf } from "../db/queries";
import { threadExists } from "../db/thread-queries";
import { notFound } from "./errors";
import { sign, TAG_HEX_LENGTH, verify } from "./signing";

export type ItemKind = "run" | "comparison" | "evaluation" | "goal-battle" | "thread";

const WHAT: Record<ItemKind, string> = {
  run: "Run",
  comparison: "Comparison",
  evaluation: "Evaluation",
  "goal-battle": "Goal battle",
  thread: "Thread",
};
const TAGGED = new RegExp(
  `^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([0-9a-f]{${TAG_HEX_LENGTH}})$`,
);

export async function newItemId(env: Env, kind: ItemKind): Promise<string> {
  const base = crypto.randomUUID();
  return `${base}-${await sign(env, kind, base)}`;
}

/**
 * Whether the server made `id` for `kind`: its tag checks, or D1 holds its row (an id from before tags, or
 * one signed under an earlier secret, before QUORUM_SECRET was set or changed).
 */
export async function isKnownId(env: Env, kind: ItemKind, id: string): Promise<boolean> {
  const tagged = TAGGED.exec(id);
  if (tagged && (await verify(env, kind, tagged[1], tagged[2]))) return true;
  const db = openDb(env.DB);
  if (kind === "evaluation") return evaluationExists(db, id);
  if (kind === "goal-battle") return goalBattleExists(db, id);
  if (kind === "thread") return threadExists(db, id);
  return kind === "run" ? (await runStatusOf(db, id)) !== null : comparisonExists(db, id);
}

/** The route's `:id`, once known to be one the server made for `kind`; else the kind's 404. */
export async function knownId(c: Context<{ Bindings: Env }>, kind: ItemKind, param = "id"): Promise<string> {
  const id = c.req.param(param) ?? "";
  if (!(await isKnownId(c.env, kind, id))) throw notFound(WHAT[kind]);
  return id;
}
