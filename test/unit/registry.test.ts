import { describe, expect, it } from "vitest";
import { listModelGroups, parseModelId, unavailableReason } from "../../worker/providers/registry";
import { estimateCost, describeModel } from "../../worker/providers/catalog";

describe("model ids", () => {
  it("split at the first colon, so names may hold colons and slashes", () => {
    expect(parseModelId("openai-compatible:qwen2.5:7b")).toEqual({ provider: "openai-compatible", name: "qwen2.5:7b" });
    expect(parseModelId("openai-compatible:meta-llama/Llama-3.1-8B")).toEqual({
      provider: "openai-compatible",
      name: "meta-llama/Llama-3.1-8B",
    });
    expect(parseModelId("acme:x")).toBeNull();
    expect(parseModelId("openai:")).toBeNull();
    expect(parseModelId("gpt-4o")).toBeNull();
  });
});

describe("provider configuration", () => {
  it("names the missing variable for each unconfigured provider", () => {
    expect(unavailableReason("openai", {})).toBe("no OPENAI_API_KEY");
    expect(unavailableReason("anthropic", { ANTHROPIC_API_KEY: "  " })).toBe("no ANTHROPIC_API_KEY");
    expect(unavailableReason("google", {})).toBe("no GOOGLE_API_KEY (or GEMINI_API_KEY)");
    expect(unavailableReason("google", { GEMINI_API_KEY: "g" })).toBeNull();
    expect(unavailableReason("openai-compatible", {})).toBe("no OPENAI_COMPATIBLE_BASE_URL");
    expect(unavailableReason("demo", {})).toBeNull();
  });

  it("lists every provider with no keys, the demo ones available and the rest explained", async () => {
    const groups = await listModelGroups({});
    expect(groups.map((g) => g.id)).toEqual(["openai", "anthropic", "google", "openai-compatible", "demo"]);
    const demo = groups.find((g) => g.id === "demo")!;
    expect(demo.available).toBe(true);
    expect(demo.models.length).toBeGreaterThanOrEqual(3);
    expect(demo.models.every((m) => m.available && m.demo && /demo/i.test(m.displayName))).toBe(true);
    const openai = groups.find((g) => g.id === "openai")!;
    expect(openai.available).toBe(false);
    expect(openai.reason).toBe("no OPENAI_API_KEY");
    expect(openai.models.length).toBeGreaterThan(0);
    expect(openai.models.every((m) => !m.available && m.reason === "no OPENAI_API_KEY")).toBe(true);
  });
});

describe("cost estimates", () => {
  it("price tokens per million from the catalog and say unknown otherwise", () => {
    const mini = describeModel("openai:gpt-4o-mini", "openai", "gpt-4o-mini");
    expect(estimateCost(mini, 1_000_000, 1_000_000)).toBeCloseTo(0.75, 10);
    expect(estimateCost(mini, 2000, 500)).toBeCloseTo((2000 * 0.15 + 500 * 0.6) / 1e6, 12);
    expect(estimateCost(mini, null, 10)).toBeNull();
    const unknown = describeModel("openai:brand-new", "openai", "brand-new");
    expect(unknown.displayName).toBe("brand-new");
    expect(estimateCost(unknown, 10, 10)).toBeNull();
  });
});
