/** POST /api/goal-battles and the goal battle routes' queries, validated once at the edge. */
import { z } from "zod";
import {
  GOAL_JUDGE_MODES,
  GOAL_SIDES,
  GOAL_USER_MODES,
  MAX_CATEGORY_LENGTH,
  MAX_GOAL_CHARS,
  MAX_GOAL_MARKER_CHARS,
  MAX_GOAL_PERSONA_CHARS,
  MAX_GOAL_TURNS,
  MAX_OUTPUT_TOKENS,
  MAX_PROMPT_CHARS,
  MAX_TEMPERATURE,
  VOTE_CHOICES,
} from "./constants";
import { goalTurnLimits, listRunsQuery, modelId, needUserModel } from "./requests";

const text = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `the ${what} is empty`)
    .max(max, `the ${what} is longer than ${max.toLocaleString("en")} characters`);

export const createGoalBattleInput = z
  .object({
    /** the two contestants (models or presets); their sides are drawn at random */
    contestants: z
      .array(modelId)
      .length(2, "give exactly two contestants, or a pool to draw two from")
      .refine(([a, b]) => a !== b, { message: "the two contestants must differ" })
      .optional(),
    /** two are drawn from it at random */
    pool: z
      .array(modelId)
      .min(2, "a pool needs at least two contestants")
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, { message: "each contestant may appear only once" })
      .optional(),
    systemPrompt: z.string().max(20_000).default(""),
    goal: text("goal", MAX_GOAL_CHARS),
    user: z
      .object({
        mode: z.enum(GOAL_USER_MODES),
        /** the model playing the user (mode "model") */
        modelId: modelId.optional(),
        persona: text("persona", MAX_GOAL_PERSONA_CHARS).optional(),
        /** the user's messages, one per turn (mode "script"); the battle ends when they run out */
        script: z.array(text("scripted message", MAX_PROMPT_CHARS)).min(1).max(MAX_GOAL_TURNS).optional(),
      })
      .strict()
      .superRefine((u, ctx) => {
        needUserModel(u, ctx);
        if (u.mode === "script" && !u.script)
          ctx.addIssue({
            code: "custom",
            path: ["script"],
            message: 'user mode "script" needs the script of user messages',
          });
      }),
    goalCheck: z
      .object({
        /** a side reaches the goal by writing this (GOAL_REACHED when neither this nor a judge is given) */
        marker: z.string().trim().min(1).max(MAX_GOAL_MARKER_CHARS).optional(),
        /** asked after each turn whether each side reached the goal; also the judge of the outcome */
        judgeModelId: modelId.optional(),
      })
      .strict()
      .default({}),
    ...goalTurnLimits,
    temperature: z.number().min(0).max(MAX_TEMPERATURE).optional(),
    maxTokens: z.number().int().min(1).max(MAX_OUTPUT_TOKENS).optional(),
    category: text("category", MAX_CATEGORY_LENGTH).optional(),
    judgeMode: z.enum(GOAL_JUDGE_MODES).default("goal"),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.contestants === !v.pool)
      ctx.addIssue({
        code: "custom",
        path: ["contestants"],
        message: "give either two contestants or a pool, not both",
      });
    if (v.judgeMode === "llm" && !v.goalCheck.judgeModelId)
      ctx.addIssue({
        code: "custom",
        path: ["goalCheck", "judgeModelId"],
        message: 'judgeMode "llm" needs a judgeModelId',
      });
  });

export type CreateGoalBattleInput = z.infer<typeof createGoalBattleInput>;

export const listGoalBattlesQuery = listRunsQuery.extend({
  /** an evaluation's id: its battles, which the list leaves out otherwise */
  evaluation: z.string().min(1).max(100).optional(),
});

export const goalMessagesQuery = z.object({
  side: z.enum(GOAL_SIDES).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const goalVoteInput = z.object({ choice: z.enum(VOTE_CHOICES) }).strict();
