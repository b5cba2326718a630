/**
 * Quorum's built-in offline models: no key, no network, and the same question always gets the same answer. For the
 * example questions (./demo/examples/) each model streams its prepared answer, and reviews, judges and chairs
 * with prepared verdicts that rank them as they deserve; any other question gets an honest note that this is the
 * demo, in each model's own style, and reviews that say they judged form alone. A system prompt changes an answer's
 * form as it asks (shorter, listed, hedged, a persona's opening: ./demo/instructions.ts), so prompt variants on one
 * demo model answer, and are reviewed, differently.
 */
import { DEMO_NOTICE, writeAnswer } from "./demo/answers";
import { followInstructions } from "./demo/follow-instructions";
import { demoGoalCheck, goalSideBrief, goalSideReply, isSimulatedUser, simulatedUserMessage } from "./demo/goal";
import { readInstructions } from "./demo/instructions";
import { streamChunks } from "./demo/chunks";
import { DEMO_MODELS, styleOf } from "./demo/models";
import { readPacket, schemaLabels } from "./demo/packet";
import { classifyPrompt } from "./demo/classify";
import { judge, judgeFivePoint, judgePair } from "./demo/review";
import { draftRevision } from "./demo/revision";
import { rubricOfRequest } from "./demo/rubric";
import { chairBriefQuestion, writeSynthesis } from "./demo/synthesis";
import { ProviderError, type GenerateRequest, type Generation, type Provider, type ReviewOutput } from "./types";

export { DEMO_NOTICE } from "./demo/answers";
export { EXAMPLES, findExample, type Example } from "./demo/examples";
export { DEMO_MODELS } from "./demo/models";
export { readPacket } from "./demo/packet";
export { keywordsOf } from "./demo/text";

export function createDemoProvider(cfg: { delayMs: number }): Provider {
  return {
    id: "demo",
    listModels: async () => DEMO_MODELS,
    test: async () => {},
    generate: (req, onDelta) => generate(req, onDelta, cfg.delayMs),
    async review(req): Promise<ReviewOutput> {
      const style = styleOf(req.model);
      await pause(cfg.delayMs, req.signal);
      const packet = readPacket(req.prompt);
      const verdict = hasProperty(req.schema, "reached")
        ? demoGoalCheck(req.prompt)
        : hasProperty(req.schema, "revisedPrompt")
          ? draftRevision(req.prompt)
          : hasProperty(req.schema, "criteria")
            ? classifyPrompt(req.prompt)
            : hasProperty(req.schema, "winner")
              ? judgePair(style, packet)
              : hasProperty(req.schema, "verdict")
                ? judgeFivePoint(style, packet)
                : judge(
                    style,
                    packet,
                    schemaLabels(req.schema) ?? packet.answers.map((a) => a.label),
                    rubricOfRequest(req.schema, req.system),
                  );
      const raw = JSON.stringify(verdict);
      return { raw, tokensIn: estimateTokens(req.system + req.prompt), tokensOut: estimateTokens(raw) };
    },
  };
}

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * Which structured call this is, by what its schema asks for: an arena judge's `winner` between A and B, an
 * evaluation judge's five-point `verdict`, a goal battle's check (`reached`), the prompt classifier's hard-prompt `criteria`, a drafted
 * `revisedPrompt` of a system prompt, or else a council review's ranking.
 */
function hasProperty(schema: Record<string, unknown>, name: string): boolean {
  const properties = schema.properties;
  return typeof properties === "object" && properties !== null && name in properties;
}

async function generate(req: GenerateRequest, onDelta: (text: string) => void, delayMs: number): Promise<Generation> {
  const style = styleOf(req.model);
  const question = [...req.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const briefed = chairBriefQuestion(question);
  const goal = goalSideBrief(req.system);
  // A chair's brief, a goal battle's user and sides are tasks of Quorum's own: they follow no persona's form.
  const answer =
    briefed !== null
      ? writeSynthesis(briefed)
      : isSimulatedUser(req.system)
        ? simulatedUserMessage(req.system ?? "", req.messages)
        : goal
          ? goalSideReply(style, goal, req.messages)
          : followInstructions(writeAnswer(style, question), readInstructions(req.system), DEMO_NOTICE);
  const chunks = streamChunks(answer);
  const limit = req.maxTokens && req.maxTokens > 0 ? Math.floor(req.maxTokens) : Infinity;
  const sent = chunks.slice(0, limit);
  if (req.signal.aborted) throw aborted();
  for (const [i, chunk] of sent.entries()) {
    if (i > 0) await pause(delayMs, req.signal);
    onDelta(chunk);
    if (req.signal.aborted) throw aborted();
  }
  const text = sent.join("");
  const truncated = sent.length < chunks.length;
  const promptChars = (req.system ?? "").length + req.messages.reduce((n, m) => n + m.content.length, 0);
  return {
    text,
    tokensIn: Math.ceil(promptChars / 4),
    tokensOut: estimateTokens(text),
    finishReason: truncated ? "length" : "stop",
    truncated,
  };
}

const aborted = () => new ProviderError("aborted", "The demo call was cancelled.");

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(aborted());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      signal.removeEventListener("abort", stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}
