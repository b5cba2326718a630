import { describe, expect, it } from "vitest";
import { judgeIdsProblem, modelIdProblem } from "../../web/src/lib/arena-state";
import { matchModels, type ModelOption, modelOptions } from "../../web/src/lib/model-match";

const options: ModelOption[] = [
  { id: "openai:gpt-4o", name: "GPT-4o", provider: "OpenAI" },
  { id: "openai:gpt-4o-mini", name: "GPT-4o mini", provider: "OpenAI" },
  { id: "anthropic:claude-sonnet-4-5", name: "Claude Sonnet 4.5", provider: "Anthropic" },
];

describe("matching typed text against the models a picker offers", () => {
  it("matches any part of the id, name or provider, every word, ignoring case, in catalog order", () => {
    expect(matchModels(options, "SONNET").map((o) => o.id)).toEqual(["anthropic:claude-sonnet-4-5"]);
    expect(matchModels(options, "openai mini").map((o) => o.id)).toEqual(["openai:gpt-4o-mini"]);
    expect(matchModels(options, "4o").map((o) => o.id)).toEqual(["openai:gpt-4o", "openai:gpt-4o-mini"]);
    expect(matchModels(options, "")).toHaveLength(3);
    expect(matchModels(options, "llama")).toEqual([]);
  });

  it("offers nothing once the text is the only match's id, and leaves out the ids excluded", () => {
    expect(matchModels(options, "anthropic:claude-sonnet-4-5")).toEqual([]);
    expect(matchModels(options, "openai:gpt-4o").map((o) => o.id)).toEqual(["openai:gpt-4o", "openai:gpt-4o-mini"]);
    expect(matchModels(options, "gpt", ["openai:gpt-4o"]).map((o) => o.id)).toEqual(["openai:gpt-4o-mini"]);
  });

  it("offers only the models that can run: an unavailable provider's and an unavailable model are left out", () => {
    const model = (id: string, available: boolean) => ({
      id,
      displayName: id,
      available,
    });
    const groups = [
      {
        id: "openai",
        displayName: "OpenAI",
        available: true,
        models: [model("openai:a", true), model("openai:b", false)],
      },
      { id: "google", displayName: "Google", available: false, models: [model("google:c", true)] },
    ];
    expect(modelOptions(groups)).toEqual([{ id: "openai:a", name: "openai:a", provider: "OpenAI" }]);
  });
});

describe("the errors shown beside the model fields", () => {
  it("names the id that is wrong, and nothing when it reads provider:model-name", () => {
    expect(modelIdProblem("gpt-4o")).toBe("“gpt-4o” is not a model id: models are named like provider:model-name.");
    expect(modelIdProblem(" ")).toBe("Name a model, as provider:model-name.");
    expect(judgeIdsProblem("openai:j1, j2")).toBe("“j2” is not a model id: judges are named like provider:model-name.");
  });

  it("accepts an id the catalog doesn't list, and an empty judge list", () => {
    expect(modelIdProblem("openai-compatible:llama3.2")).toBeNull();
    expect(judgeIdsProblem("")).toBeNull();
    expect(judgeIdsProblem("openai:a,openai:b openai:c")).toBeNull();
  });
});
