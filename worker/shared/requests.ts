/** Request bodies and queries of the HTTP API, validated once at the edge. */
import { z } from "zod";

export const modelId = z
  .string()
  .trim()
  .min(3)
  .max(200)
  .refine((s) => /^[a-z-]+:\S/.test(s), { message: "a model id looks like provider:model-name, e.g. openai:gpt-4o-mini" });

export const modelParamsInput = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(200_000).optional(),
    systemPrompt: z.string().max(20_000).optional(),
  })
  .strict();

export const runSettingsInput = z
  .object({
    blind: z.boolean().default(true),
    selfReview: z.enum(["exclude", "downweight"]).default("exclude"),
    selfReviewWeight: z.number().min(0).max(1).default(0.5),
    autoEvaluate: z.boolean().default(true),
    concurrency: z.number().int().min(1).max(16).default(4),
    timeoutMs: z.number().int().min(100).max(900_000).default(120_000),
    systemPrompt: z.string().max(20_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(200_000).optional(),
  })
  .strict();

export const createRunInput = z
  .object({
    question: z.string().trim().min(1, "the question is empty").max(50_000),
    models: z
      .array(z.object({ id: modelId, params: modelParamsInput.optional() }).strict())
      .min(1, "pick at least one model")
      .max(26, "at most 26 models take part in one run")
      .refine((ms) => new Set(ms.map((m) => m.id)).size === ms.length, { message: "each model may appear only once" }),
    settings: runSettingsInput.default(runSettingsInput.parse({})),
  })
  .strict();

export const listRunsQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const retryAnswersInput = z.object({ modelIds: z.array(modelId).min(1).optional() }).strict();

export const exportQuery = z.object({ format: z.enum(["json", "md"]).default("json") });

export const wsQuery = z.object({ since: z.coerce.number().int().min(0).optional() });

export type CreateRunInput = z.infer<typeof createRunInput>;
export type RunSettingsInput = z.infer<typeof runSettingsInput>;
