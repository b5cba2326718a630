/**
 * `quorum:council` on /v1: the conversation becomes a council run among QUORUM_COUNCIL_MODELS (or the call's own
 * `models`), started as POST /api/runs starts one (start-run.ts: in History with its vote math, its spend capped
 * and counted as a run's), and the answer is the winner's, or the synthesis when `synthesis` names its writer.
 * The run's id goes out at once in `x-quorum-run`. The answer is known only when the run ends, so a stream sends
 * SSE comments while the council deliberates, then the answer in OpenAI's chunks.
 */
import type { Context } from "hono";
import type { ChatMessage } from "../providers/types";
import { PROVIDER_IDS } from "../providers/types";
import { unavailableReason } from "../providers/registry";
import { DEMO_MODELS } from "../providers/demo/models";
import { settings } from "../shared/config";
import { type ChatCompletionInput, type CreateRunInput, createRunInput } from "../shared/requests";
import type { RunDetail } from "../shared/run";
import { resolveContestants } from "./contestants";
import { ApiError } from "./errors";
import { runEnded } from "./run-end";
import { runDetail } from "./runs";
import { type StartedRun, startRun } from "./start-run";
import { openAiError } from "./v1-errors";

type Conversation = { system?: string; messages: ChatMessage[] };

/** A refusal of one request field, in the shape the /v1 error middleware reads `param` from. */
const refuseField = (param: string, code: string, message: string) => new ApiError(400, code, message, { param });

/**
 * The council's members: the call's `models`, else QUORUM_COUNCIL_MODELS, else what the setup page starts a first
 * run with: the demo models, when no real provider is configured.
 */
function membersOf(env: Env, input: ChatCompletionInput): string[] {
  if (input.models) return input.models;
  const configured = settings(env).councilModels;
  if (configured.length) return configured;
  const real = PROVIDER_IDS.filter((p) => p !== "demo" && unavailableReason(p, env) === null);
  if (!real.length) return DEMO_MODELS.map((m) => m.id);
  throw refuseField(
    "models",
    "council_models_required",
    "quorum:council needs its members: set QUORUM_COUNCIL_MODELS (comma-separated model or preset ids), or send models: [...] in the request body (extra_body with OpenAI's SDKs).",
  );
}

/** A run takes one question: a longer conversation is put to the council as its transcript. */
function questionOf(messages: ChatMessage[]): string {
  if (messages.length === 1) return messages[0].content;
  const last = messages.findLastIndex((m) => m.role === "user");
  const said = (m: ChatMessage) => `${m.role === "user" ? "User" : "Assistant"}: ${m.content}`;
  return [
    "The conversation so far:",
    ...messages.slice(0, last).map(said),
    "Answer the user's latest message:",
    messages[last].content,
  ].join("\n\n");
}

/** Where a run body's field came from in the /v1 request, for the error's `param`. */
const PARAMS: Record<string, string> = {
  question: "messages",
  models: "models",
  synthesis: "synthesis",
  systemPrompt: "messages",
  maxTokens: "max_completion_tokens",
  temperature: "temperature",
};

/** The run the call asks for, validated as POST /api/runs validates its body. */
function runBodyOf(env: Env, input: ChatCompletionInput, conversation: Conversation): CreateRunInput {
  const members = membersOf(env, input);
  const parsed = createRunInput.safeParse({
    question: questionOf(conversation.messages),
    models: members.map((id) => ({ id })),
    settings: {
      ...(conversation.system ? { systemPrompt: conversation.system } : {}),
      ...(input.temperature != null ? { temperature: input.temperature } : {}),
      ...((input.max_completion_tokens ?? input.max_tokens) != null
        ? { maxTokens: input.max_completion_tokens ?? input.max_tokens }
        : {}),
      ...(input.synthesis ? { synthesis: { modelId: input.synthesis } } : {}),
    },
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue.path.at(issue.path[0] === "settings" ? 1 : 0) ?? "");
  const from = field === "models" && !input.models ? " (the models of QUORUM_COUNCIL_MODELS)" : "";
  throw refuseField(PARAMS[field] ?? field, "invalid_request", `${field}${from}: ${issue.message}`);
}

/** Resolves the members and the chair first, so an unknown or unconfigured one is refused naming its field. */
async function checkContestants(env: Env, body: CreateRunInput) {
  const named: [string, string[]][] = [
    ["models", body.models.map((m) => m.id)],
    ["synthesis", body.settings.synthesis ? [body.settings.synthesis.modelId] : []],
  ];
  for (const [param, ids] of named)
    try {
      await resolveContestants(env, ids);
    } catch (err) {
      if (err instanceof ApiError) throw refuseField(param, err.code, err.message);
      throw err;
    }
}

interface CouncilAnswer {
  text: string;
  /** the model that wrote it (a preset's model; the preset is named in x-quorum-preset) */
  modelId: string;
  headers: Record<string, string>;
  truncated: boolean;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

const failed = (code: string, message: string) => new ApiError(502, code, message);

/** The answer of an ended run: its synthesis when one was asked for, else its winner's. */
function answerOf(detail: RunDetail, run: StartedRun): CouncilAnswer {
  const { id, status, error } = detail.run;
  const see = `See the run: GET /api/runs/${id}, or /runs/${id} in the page.`;
  if (status === "failed")
    throw failed("council_failed", `The council run failed: ${error ?? "no model answered"}. ${see}`);
  if (status === "cancelled")
    throw failed("council_cancelled", `The council run was cancelled before it ended. ${see}`);
  const first = detail.aggregation?.finalRanking[0];
  if (!first)
    throw failed(
      "council_unranked",
      `The council could not rank its answers: ${error ?? "every review failed"}. ${see}`,
    );
  const usage = {
    prompt_tokens: detail.totals.tokensIn,
    completion_tokens: detail.totals.tokensOut,
    total_tokens: detail.totals.tokensIn + detail.totals.tokensOut,
  };
  const answered = (contestant: string) => {
    const called = run.contestants.find((x) => x.id === contestant)?.modelId ?? contestant;
    const preset: Record<string, string> = called === contestant ? {} : { "x-quorum-preset": contestant };
    return { modelId: called, preset };
  };
  const ranked = detail.aggregation!.finalRanking.length;
  if (detail.run.settings.synthesis) {
    const synthesis = detail.synthesis;
    if (synthesis?.status !== "done")
      throw failed(
        "synthesis_failed",
        `The council ranked its answers, but the synthesis failed: ${synthesis?.error ?? "it did not finish"}. ${see}`,
      );
    const { modelId, preset } = answered(synthesis.modelId);
    return {
      text: synthesis.text,
      modelId,
      truncated: synthesis.truncated,
      usage,
      headers: { ...preset, "x-quorum-reason": `wrote the synthesis of the council's ${ranked} ranked answers` },
    };
  }
  const winner = detail.answers.find((a) => a.id === first.answerId)!;
  const { modelId, preset } = answered(winner.modelId!);
  const votes = `${first.borda} Borda points, ${first.firstPlaceVotes} first-place vote${first.firstPlaceVotes === 1 ? "" : "s"}`;
  return {
    text: winner.text,
    modelId,
    truncated: winner.truncated,
    usage,
    headers: { ...preset, "x-quorum-reason": `#1 of ${ranked} in the council run (${votes})` },
  };
}

async function endedAnswer(env: Env, run: StartedRun, onStatus?: (status: string) => void): Promise<CouncilAnswer> {
  await runEnded(env, run.id, onStatus);
  return answerOf(await runDetail(env, run.id), run);
}

const created = () => Math.floor(Date.now() / 1000);
const completionId = () => `chatcmpl-${crypto.randomUUID().replace(/-/g, "")}`;
const encoder = new TextEncoder();
/** Often enough that no proxy or client drops a connection that is quiet while the council deliberates. */
const KEEP_ALIVE_MS = 15_000;

/** The answer's chunks, sent once the run has ended: OpenAI's shape, then the usage of the whole run when asked. */
function answerChunks(answer: CouncilAnswer, id: string, includeUsage: boolean): unknown[] {
  const stamp = { id, object: "chat.completion.chunk", created: created(), model: answer.modelId };
  const chunk = (delta: { role?: "assistant"; content?: string }, finish: "stop" | "length" | null = null) => ({
    ...stamp,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(includeUsage ? { usage: null } : {}),
  });
  return [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: answer.text }),
    chunk({}, answer.truncated ? "length" : "stop"),
    ...(includeUsage ? [{ ...stamp, choices: [], usage: answer.usage }] : []),
  ];
}

/** The council's answer to a /v1 call for `quorum:council`, whole or streamed. */
export async function councilCompletion(
  c: Context<{ Bindings: Env }>,
  input: ChatCompletionInput,
  conversation: Conversation,
): Promise<Response> {
  const body = runBodyOf(c.env, input, conversation);
  await checkContestants(c.env, body);
  const run = await startRun(c, body);
  const id = completionId();
  if (!input.stream) {
    const answer = await endedAnswer(c.env, run);
    return c.json(
      {
        id,
        object: "chat.completion" as const,
        created: created(),
        model: answer.modelId,
        choices: [
          {
            index: 0,
            message: { role: "assistant" as const, content: answer.text, refusal: null },
            finish_reason: answer.truncated ? "length" : "stop",
            logprobs: null,
          },
        ],
        usage: answer.usage,
      },
      200,
      { ...answer.headers, "x-quorum-run": run.id, "x-quorum-model": answer.modelId },
    );
  }

  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  // A client that went away fails the write; the run goes on (it is in History either way).
  const write = (text: string) => void writer.write(encoder.encode(text)).catch(() => {});
  const comment = (text: string) => write(`: ${text}\n\n`);
  const data = (value: unknown) => write(`data: ${typeof value === "string" ? value : JSON.stringify(value)}\n\n`);
  comment(`quorum council run ${run.id} started`);
  const alive = setInterval(() => comment("the council is still deliberating"), KEEP_ALIVE_MS);
  const done = endedAnswer(c.env, run, (status) => comment(`council run ${run.id} ${status}`))
    .then((answer) => {
      for (const chunk of answerChunks(answer, id, input.stream_options?.include_usage === true)) data(chunk);
      data("[DONE]");
    })
    .catch((err: unknown) => {
      const known = err instanceof ApiError ? err : failed("council_failed", "The council run could not be followed.");
      data(openAiError(known.status, known.code, known.message));
    })
    .finally(() => {
      clearInterval(alive);
      writer.close().catch(() => {});
    });
  c.executionCtx.waitUntil(done);
  return new Response(readable, {
    headers: {
      "x-quorum-run": run.id,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
    },
  });
}
