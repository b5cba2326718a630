/**
 * Whether an answer gives away who wrote it ("As Claude, made by Anthropic…"), which makes a blind
 * vote on it worthless. The demo models never count: their names are not secrets.
 */
import { displayName, parseModelId } from "../providers/registry";
import type { ProviderId } from "../providers/types";

const MAKERS: Record<ProviderId, string[]> = {
  openai: ["OpenAI", "ChatGPT", "GPT"],
  anthropic: ["Anthropic", "Claude"],
  google: ["Google", "Gemini", "DeepMind", "Bard", "Gemma"],
  "openai-compatible": [],
  demo: [],
};

/** Family words in model names served by compatible servers (llama3.2 → Llama, Meta). */
const FAMILIES: [RegExp, string[]][] = [
  [/llama/i, ["Llama", "Meta"]],
  [/qwen/i, ["Qwen", "Alibaba"]],
  [/mistral|mixtral/i, ["Mistral"]],
  [/gemma/i, ["Gemma", "Google"]],
  [/phi/i, ["Phi", "Microsoft"]],
  [/deepseek/i, ["DeepSeek"]],
  [/gpt/i, ["GPT", "OpenAI"]],
  [/claude/i, ["Claude", "Anthropic"]],
];

/** Every word that would name this model or its maker. */
export function identityTerms(modelId: string): string[] {
  const parsed = parseModelId(modelId);
  if (!parsed || parsed.provider === "demo") return [];
  const family = FAMILIES.filter(([pattern]) => pattern.test(parsed.name)).flatMap(([, words]) => words);
  return [...new Set([parsed.name, displayName(modelId), ...MAKERS[parsed.provider], ...family])].filter(
    (t) => t.length >= 3,
  );
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** True when `text` names the model or its maker as a word of its own (case-insensitive). */
export function namesItself(text: string, modelId: string): boolean {
  return identityTerms(modelId).some((term) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(term)}($|[^\\p{L}])`, "iu").test(text),
  );
}
