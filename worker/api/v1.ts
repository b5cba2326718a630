/**
 * The OpenAI-compatible endpoint: GET /v1/models and POST /v1/chat/completions, so any tool that speaks OpenAI's
 * API (its SDKs, editors, chat apps) reaches every configured model, `quorum:top` and `quorum:council`, through Quorum. Mounted in
 * worker/index.ts behind the same middleware as /api, with OpenAI's error shape (v1-errors.ts) in front.
 */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { chatCompletionInput } from "../shared/requests";
import { chatCompletion, chatCompletionChunk, openAiErrorResponse, openAiModelList } from "../shared/responses";
import { jsonResponse, mediaResponse } from "./openapi-describe";
import { clientIdOf, rateLimit } from "./rate-limit";
import { reserveSpend, workMs } from "./spend";
import { settings } from "../shared/config";
import { QUORUM_COUNCIL } from "../shared/constants";
import { validate } from "./validate";
import { conversationOf, estimateCall, streamedCompletion, wholeCompletion } from "./v1-completion";
import { councilCompletion } from "./v1-council";
import { listV1Models, resolveModel } from "./v1-models";

/** /v1 refuses in OpenAI's shape, whatever refuses. */
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, jsonResponse(openAiErrorResponse, "Refused, in OpenAI's error shape.")]));

const describedModels = describeRoute({
  tags: ["OpenAI-compatible"],
  summary:
    "Every model /v1/chat/completions takes: quorum:top, quorum:council, each live preset and each configured provider's models",
  responses: {
    200: jsonResponse(openAiModelList, "The models, in OpenAI's list shape."),
    ...errors(401, 403, 500, 503),
  },
});

const describedCompletions = describeRoute({
  tags: ["OpenAI-compatible"],
  summary:
    "A chat completion from any configured model, quorum:top or quorum:council, whole or streamed (OpenAI's shapes)",
  description:
    "model is a model id (openai:gpt-4.1, demo:concise…), a preset (preset:<slug>@<version>: its model, system prompt and parameters; x-quorum-preset names it), quorum:top (the human leaderboard's leader, with at least QUORUM_TOPPER_MIN_APPEARANCES appearances) or quorum:top/<category or label>, or quorum:council (a council run among QUORUM_COUNCIL_MODELS or the body's models; the answer is the winner's, or the synthesis when synthesis names its writer; x-quorum-run names the run, which is in History; streamed, SSE comments keep the connection alive until the run ends). The answer's model and the x-quorum-model header name the model that answered; x-quorum-reason says why the leader was picked, x-quorum-fallback why the fallback answered. n must be 1; tools, functions and structured output are refused. Errors are OpenAI's shape { error: { message, type, param, code } }; a stream that fails after its first token ends with an error event.",
  responses: {
    200: mediaResponse(
      "The completion, or with stream=true its chunks as server-sent events ending with data: [DONE].",
      {
        "application/json": chatCompletion,
        "text/event-stream": chatCompletionChunk,
      },
    ),
    ...errors(400, 401, 403, 404, 413, 415, 429, 500, 501, 502, 503, 504),
  },
});

export const v1Api = new Hono<{ Bindings: Env }>()
  .get("/models", describedModels, async (c) => c.json(await listV1Models(c.env)))
  .post("/chat/completions", describedCompletions, validate("json", chatCompletionInput), async (c) => {
    const input = c.req.valid("json");
    const conversation = conversationOf(input);
    await rateLimit(c, "completions", await clientIdOf(c));
    if (input.model === QUORUM_COUNCIL) return councilCompletion(c, input, conversation);
    const { modelId, params, headers } = await resolveModel(c.env, input.model);
    const id = `chatcmpl-${crypto.randomUUID().replace(/-/g, "")}`;
    const system = [params.systemPrompt, conversation.system].filter((s) => s !== undefined).join("\n\n");
    const request = {
      modelId,
      messages: conversation.messages,
      system: system || undefined,
      temperature: input.temperature ?? params.temperature ?? undefined,
      maxTokens: input.max_completion_tokens ?? input.max_tokens ?? params.maxTokens ?? undefined,
    };
    // Under a spend cap the call sets its most aside first, as runs do; with none there is nothing to refuse, so it
    // skips that D1 write on the way to the first token and its cost is kept when it ends.
    const { dayUsd, runUsd } = settings(c.env).spend;
    const holdId =
      dayUsd === null && runUsd === null
        ? null
        : await reserveSpend(c, {
            itemId: id,
            what: "call",
            estimate: estimateCall(c.env, request),
            hidden: false,
            blindPrices: null,
            workMs: workMs(c.env, settings(c.env).arena.timeoutMs),
          });
    const call = { ...request, id, holdId };
    const named = { ...headers, "x-quorum-model": modelId };
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    if (input.stream)
      return streamedCompletion(c.env, call, input.stream_options?.include_usage === true, named, waitUntil);
    const body = await wholeCompletion(c.env, call, waitUntil);
    for (const [name, value] of Object.entries(named)) c.header(name, value);
    return c.json(body);
  });
