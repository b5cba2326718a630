import { describe, expect, it } from "vitest";
import { parseClassifierOutput } from "../../worker/labels/classifier";
import { detectLanguage, languageCodeOf } from "../../worker/labels/language";
import { estimateTokens, LONG_QUERY_TOKENS, promptHash, ruleLabels, userTextOf } from "../../worker/labels/rules";
import { classifyPrompt } from "../../worker/providers/demo/classify";

const facts = (text: string | null, turns: number | null = 1) => ({ text, turns, userTokens: null, language: null });

describe("rule labels (worker/labels/rules.ts)", () => {
  it("label a conversation with more than one user turn multi_turn, and one turn not", () => {
    expect(ruleLabels(facts(userTextOf(["Hi there, how are you?", "And what is the weather?"]), 2))).toContain(
      "multi_turn",
    );
    expect(ruleLabels(facts("What is the weather like today?", 1))).not.toContain("multi_turn");
    expect(ruleLabels(facts(null, 3))).toEqual(["multi_turn"]);
  });

  it("label a prompt of 500 tokens or more long_query, counting about four characters a token", () => {
    const justLong = "a".repeat(LONG_QUERY_TOKENS * 4);
    const justShort = "a".repeat(LONG_QUERY_TOKENS * 4 - 4);
    expect(estimateTokens(justLong)).toBe(500);
    expect(estimateTokens(justShort)).toBe(499);
    expect(ruleLabels(facts(justLong))).toContain("long_query");
    expect(ruleLabels(facts(justShort))).not.toContain("long_query");
    // Han characters are about a token each: 500 of them are a long query.
    expect(estimateTokens("字".repeat(500))).toBe(500);
    expect(ruleLabels(facts("字".repeat(500)))).toContain("long_query");
  });

  it("take the log's own token count and language over estimates", () => {
    expect(ruleLabels({ text: "short", turns: 1, userTokens: 812, language: "fr" })).toEqual(["long_query", "lang:fr"]);
    expect(ruleLabels({ text: null, turns: 1, userTokens: 499, language: null })).toEqual([]);
  });

  it("detect the language by script, and Latin-script languages by their common words", () => {
    expect(detectLanguage("What is the difference between OpenCL and CUDA?")).toBe("en");
    expect(detectLanguage("¿Cuál es la diferencia entre los dos y por qué es importante para el proyecto?")).toBe("es");
    expect(
      detectLanguage("Quelle est la différence entre les deux et pourquoi est-ce important pour le projet ?"),
    ).toBe("fr");
    expect(detectLanguage("Was ist der Unterschied und wie schreibe ich das für die Arbeit?")).toBe("de");
    expect(detectLanguage("请解释一下量子计算的基本原理")).toBe("zh");
    expect(detectLanguage("量子コンピュータについて説明してください")).toBe("ja");
    expect(detectLanguage("양자 컴퓨팅에 대해 설명해 주세요")).toBe("ko");
    expect(detectLanguage("Объясни, пожалуйста, как работает квантовый компьютер")).toBe("ru");
    expect(detectLanguage("Поясни, будь ласка, як працює квантовий комп'ютер і що це є")).toBe("uk");
    expect(detectLanguage("12345 + 678")).toBeNull();
    expect(ruleLabels(facts("请解释一下量子计算的基本原理"))).toEqual(["lang:zh"]);
  });

  it("read an imported log's language names as codes", () => {
    expect(languageCodeOf("English")).toBe("en");
    expect(languageCodeOf("Chinese")).toBe("zh");
    expect(languageCodeOf("pt")).toBe("pt");
    expect(languageCodeOf("unknown")).toBeNull();
    expect(languageCodeOf("Serbo-Croatian")).toBe("serbo_croatian");
  });

  it("hash a prompt by its first 10,000 characters, the same text always the same way", () => {
    expect(promptHash("hello\n")).toBe(promptHash(userTextOf(["hello"])));
    expect(promptHash("hello\n")).not.toBe(promptHash("hello!\n"));
    expect(promptHash("hello\n")).toMatch(/^[0-9a-f]{16}$/);
    const long = "x".repeat(10_000);
    expect(promptHash(`${long}tail one`)).toBe(promptHash(`${long}tail two`));
  });
});

describe("the classifier's answer (worker/labels/classifier.ts)", () => {
  const answer = (o: Record<string, unknown>) =>
    JSON.stringify({
      coding: false,
      math: false,
      creative_writing: false,
      instruction_following: 0,
      criteria: [],
      ...o,
    });

  it("makes a hard prompt of 6 or more of the 7 criteria, and instruction following of a score of 4 or more", () => {
    expect(parseClassifierOutput(answer({ criteria: [1, 2, 3, 4, 5, 6] }))).toEqual({
      ok: true,
      value: ["hard_prompt"],
    });
    expect(parseClassifierOutput(answer({ criteria: [1, 2, 3, 4, 5, 5] }))).toEqual({ ok: true, value: [] });
    expect(parseClassifierOutput(answer({ instruction_following: 4 }))).toEqual({
      ok: true,
      value: ["instruction_following"],
    });
    expect(parseClassifierOutput(answer({ instruction_following: 3 }))).toEqual({ ok: true, value: [] });
    expect(parseClassifierOutput(`\`\`\`json\n${answer({ coding: true, math: true })}\n\`\`\``)).toEqual({
      ok: true,
      value: ["coding", "math"],
    });
  });

  it("says what is wrong with an answer it can't read", () => {
    expect(parseClassifierOutput("yes")).toEqual({ ok: false, error: "the answer is not JSON" });
    expect(parseClassifierOutput(answer({ math: "yes" }))).toEqual({
      ok: false,
      error: '"math" must be true or false',
    });
    expect(parseClassifierOutput(answer({ criteria: [8] }))).toEqual({
      ok: false,
      error: '"criteria" must list criterion numbers from 1 to 7',
    });
  });

  it("is what the demo classifier gives, from keywords, with no key", () => {
    const labels = (prompt: string) => {
      const parsed = parseClassifierOutput(JSON.stringify(classifyPrompt(`<user_prompt>\n${prompt}\n</user_prompt>`)));
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.value;
    };
    expect(labels("Write a Python function that reverses a linked list")).toContain("coding");
    expect(labels("Solve the equation 3x + 5 = 20")).toContain("math");
    expect(labels("Write a short poem about the sea")).toContain("creative_writing");
    expect(labels("Tell me a fun fact")).toEqual([]);
    expect(
      labels(
        "List exactly 5 steps, as a numbered list in markdown, and do not use jargon: first explain, then finally summarise",
      ),
    ).toContain("instruction_following");
    expect(
      labels(
        "Write precise, production-ready TypeScript code to implement a rate limiter for my team's API and explain the trade-offs, with a creative twist",
      ),
    ).toEqual(expect.arrayContaining(["coding", "hard_prompt"]));
  });
});
