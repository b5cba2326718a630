/**
 * Who answers a thread's message, resolved at the edge: the thread's model or a preset (single), the human
 * leaderboard's leader (topper, with why), or a blind arena comparison started as POST /api/comparisons starts one
 * (dual). Single and topper set their most aside here, under the reply's own id; a comparison sets its own.
 */
import type { Context } from "hono";
import { chooseTopper, TopperError } from "../arena/topper";
import { ASSUMED_MAX_TOKENS, priceCalls, tokensOf } from "../council/estimate";
import { openDb } from "../db/queries";
import { displayName } from "../providers/registry";
import type { ChatMessage } from "../providers/types";
import type { SendMessage } from "../rooms/thread-room";
import { conversationOf, type ReplyCall } from "../rooms/thread/record";
import { settings } from "../shared/config";
import type { ThreadMessageInput } from "../shared/requests";
import type { ThreadDetail } from "../shared/thread";
import { startComparison } from "./comparison-start";
import { claimContestants } from "./contestants";
import { ApiError } from "./errors";
import { clientIdOf, rateLimit } from "./rate-limit";
import { redactMessage, redactMode } from "./redaction";
import { releaseSpend, reserveSpend, workMs } from "./spend";

type Ctx = Context<{ Bindings: Env }>;

export interface ResolvedReply {
  content: string;
  reply: SendMessage["reply"];
  /** gives back what was set aside, when the room refused the message */
  release(): Promise<void>;
}

export async function replyFor(c: Ctx, detail: ThreadDetail, input: ThreadMessageInput): Promise<ResolvedReply> {
  const { thread } = detail;
  const mode = input.mode ?? thread.mode;
  if (input.models && mode !== "dual")
    throw new ApiError(400, "invalid_request", `models names a dual message's two models; this message is ${mode}.`);
  if (input.modelId && mode !== "single")
    throw new ApiError(400, "invalid_request", `modelId names a single message's model; this message is ${mode}.`);
  const content = redactMode(c.env) ? (await redactMessage(input.content)).content : input.content;
  const id = crypto.randomUUID();
  const history = conversationOf(detail.messages);
  const nothing = async () => {};

  if (mode === "dual") {
    const started = await startComparison(
      c,
      { prompt: content, blind: true, context: history, ...(input.models ? { models: input.models } : {}) },
      { id: thread.id, messageId: id },
    );
    const reply = { id, mode, modelId: null, displayName: null, reason: null, comparisonId: started.id };
    return { content, reply, release: nothing };
  }

  await rateLimit(c, "completions", await clientIdOf(c));
  const system = thread.systemPrompt ?? undefined;
  let shown: { modelId: string; displayName: string; reason: string | null };
  let call: Omit<ReplyCall, "holdId">;
  if (mode === "topper") {
    const topper = await leader(c.env, thread.category);
    shown = { modelId: topper.modelId, displayName: displayName(topper.modelId), reason: topper.why };
    call = { modelId: topper.modelId, system };
  } else {
    const named = input.modelId ?? thread.modelId;
    if (!named)
      throw new ApiError(
        400,
        "no_model",
        "This thread has no model: name one in modelId, or set the thread's (PATCH /api/threads/:id).",
      );
    // A preset brings its own system prompt and parameters; a model id answers under the thread's system prompt.
    const [contestant] = await claimContestants(c.env, [named]);
    const own = contestant.params;
    shown = { modelId: contestant.id, displayName: contestant.displayName, reason: null };
    call = {
      modelId: contestant.modelId,
      system: own.systemPrompt ?? system,
      temperature: own.temperature,
      maxTokens: own.maxTokens,
    };
  }
  const holdId = await reserveSpend(c, {
    itemId: id,
    what: "call",
    estimate: estimate(c.env, call, [...history, { role: "user", content }]),
    hidden: false,
    blindPrices: null,
    workMs: workMs(c.env, settings(c.env).arena.timeoutMs),
  });
  return {
    content,
    reply: { id, mode, ...shown, comparisonId: null, call: { ...call, holdId } },
    release: () => releaseSpend(c.env, holdId),
  };
}

async function leader(env: Env, category: string | null) {
  try {
    return await chooseTopper(env, openDb(env.DB), category);
  } catch (err) {
    if (err instanceof TopperError) throw new ApiError(409, "no_leader", err.message);
    throw err;
  }
}

/** The most the reply could cost: the whole conversation read, and its whole output allowance written. */
function estimate(env: Env, call: Omit<ReplyCall, "holdId">, messages: ChatMessage[]) {
  const { charge, total } = priceCalls(env);
  const read = messages.reduce((n, m) => n + tokensOf(m.content), tokensOf(call.system ?? ""));
  charge(call.modelId, read, call.maxTokens ?? ASSUMED_MAX_TOKENS);
  return total();
}
