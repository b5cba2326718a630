/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { LEADERBOARD_ORDERS, LEADERBOARD_SOURCES, MAX_JUDGES, MAX_RUN_MODELS } from "../../worker/shared/constants";
import constantsSource from "../../worker/shared/constants.ts?raw";
import { createRunInput, judgeInput, leaderboardQuery } from "../../worker/shared/requests";

describe("the constants the page shares with the Worker (worker/shared/constants.ts)", () => {
  it("import nothing, so the page's first load carries only the values", () => {
    expect(constantsSource).not.toMatch(/^\s*(import|export .* from)\b/m);
  });

  it("are what the Worker's request schemas accept", () => {
    for (const source of LEADERBOARD_SOURCES) expect(leaderboardQuery.parse({ source }).source).toBe(source);
    for (const order of LEADERBOARD_ORDERS) expect(leaderboardQuery.parse({ order }).order).toBe(order);
    expect(leaderboardQuery.safeParse({ source: "nonsense" }).success).toBe(false);
    const judges = (n: number) => Array.from({ length: n }, (_, i) => `openai:judge-${i}`);
    expect(judgeInput.safeParse({ judges: judges(MAX_JUDGES) }).success).toBe(true);
    expect(judgeInput.safeParse({ judges: judges(MAX_JUDGES + 1) }).error?.issues[0].message).toBe(
      `at most ${MAX_JUDGES} judges`,
    );
    const models = (n: number) => judges(n).map((id) => ({ id }));
    expect(createRunInput.safeParse({ question: "Q?", models: models(MAX_RUN_MODELS) }).success).toBe(true);
    expect(createRunInput.safeParse({ question: "Q?", models: models(MAX_RUN_MODELS + 1) }).success).toBe(false);
  });
});
