import { describe, expect, it } from "vitest";
import { buildJudgeRequest } from "../../worker/judges/prompt";
import { buildReviewRequest } from "../../worker/council/prompts";
import { parseReview } from "../../worker/council/parse-review";
import { createDemoProvider, DEMO_NOTICE, EXAMPLES } from "../../worker/providers/demo";
import { measure } from "../../worker/providers/demo/features";
import { readInstructions } from "../../worker/providers/demo/instructions";
import type { DemoStyle } from "../../worker/providers/demo/models";

const demo = createDemoProvider({ delayMs: 0 });
const signal = () => new AbortController().signal;
const STYLES: DemoStyle[] = ["concise", "thorough", "skeptic"];

const TERSE = "You are terse. Answer in one sentence.";
const THOROUGH = "Be thorough: explain in depth with headings and bullet points, and mention caveats and risks.";

async function answer(model: string, question: string, system?: string) {
  const gen = await demo.generate(
    { model, messages: [{ role: "user", content: question }], system, signal: signal() },
    () => {},
  );
  return gen.text;
}

/** Each demo reviewer's overall score for answers A and B to `question`. */
async function scores(question: string, a: string, b: string) {
  const req = buildReviewRequest({
    question,
    answers: [
      { label: "A", text: a },
      { label: "B", text: b },
    ],
    reviewerLabel: null,
    selfReview: "downweight",
  });
  return Object.fromEntries(
    await Promise.all(
      STYLES.map(async (style) => {
        const out = await demo.review({
          model: style,
          system: req.system,
          prompt: req.prompt,
          schema: req.schema,
          signal: signal(),
        });
        const parsed = parseReview(out.raw, req.labels);
        if (!parsed.ok) throw new Error(parsed.error);
        const overall = (label: string) => parsed.review.reviews.find((r) => r.label === label)!.scores.overall;
        return [style, { A: overall("A"), B: overall("B") }];
      }),
    ),
  ) as Record<DemoStyle, { A: number; B: number }>;
}

describe("reading a system prompt", () => {
  it("finds brevity, structure, caution and a persona by their usual words", () => {
    expect(readInstructions("Be concise.")).toEqual({
      brevity: "short",
      structure: null,
      cautious: false,
      opening: null,
    });
    expect(readInstructions("Reply in one sentence")).toMatchObject({ brevity: "sentence" });
    expect(readInstructions("Use bullet points")).toMatchObject({ structure: "bullets" });
    expect(readInstructions("Give numbered steps")).toMatchObject({ structure: "steps" });
    expect(readInstructions("Be thorough and detailed")).toMatchObject({ structure: "detailed" });
    expect(readInstructions("Mention caveats")).toMatchObject({ cautious: true });
    expect(readInstructions("You are a senior SRE, on call tonight.")).toMatchObject({
      opening: "Speaking as a senior SRE:",
    });
    expect(readInstructions("Be friendly")).toMatchObject({ opening: "Happy to help!" });
  });

  it("takes nothing from a prompt that asks for none of it", () => {
    expect(readInstructions("You are a helpful assistant.")).toEqual({
      brevity: null,
      structure: null,
      cautious: false,
      opening: null,
    });
    expect(readInstructions(undefined)).toEqual(readInstructions(""));
  });
});

describe("a demo model follows its system prompt", () => {
  const example = EXAMPLES[0];

  it("answers as before with no system prompt, or one that asks for nothing it follows", async () => {
    const plain = await answer("thorough", example.question);
    expect(plain).toBe(`${example.answers.thorough.text}\n\n${DEMO_NOTICE}`);
    expect(await answer("thorough", example.question, "You are a helpful assistant.")).toBe(plain);
  });

  it("answers in one sentence when asked, keeping the demo notice last", async () => {
    const text = await answer("thorough", example.question, TERSE);
    const body = text.slice(0, -(DEMO_NOTICE.length + 2));
    expect(text.endsWith(`\n\n${DEMO_NOTICE}`)).toBe(true);
    expect(body.split(/(?<=[.!?])\s+/).filter(Boolean)).toHaveLength(1);
    expect(measure(body, []).headings).toBe(0);
  });

  it("lays an answer out with headings and a list when asked, and hedges when asked for caveats", async () => {
    const text = await answer("concise", example.question, THOROUGH);
    const f = measure(text, []);
    expect(f.headings).toBeGreaterThanOrEqual(2);
    expect(f.listItems).toBeGreaterThanOrEqual(1);
    expect(text).toContain("**Caveats:**");
    expect(f.absolutes).toBe(0);
  });

  it("gives numbered steps, and opens in the persona's voice", async () => {
    const text = await answer("skeptic", example.question, "You are a patient tutor. Answer in numbered steps.");
    expect(text.startsWith("Let's take this one step at a time.\n\n## Steps\n\n1. ")).toBe(true);
  });

  it("is deterministic: the same prompt and system prompt give the same text", async () => {
    expect(await answer("skeptic", example.question, THOROUGH)).toBe(
      await answer("skeptic", example.question, THOROUGH),
    );
  });

  it.each(STYLES)("makes a terse and a thorough preset on demo:%s answer every example differently", async (style) => {
    for (const ex of EXAMPLES) {
      const terse = await answer(style, ex.question, TERSE);
      const thorough = await answer(style, ex.question, THOROUGH);
      expect(terse).not.toBe(thorough);
      expect(measure(terse, []).words).toBeLessThan(measure(thorough, []).words);
    }
  });

  it("makes them differ on a question with no prepared answer too", async () => {
    const question = "How should I name the branches of a git repository?";
    const terse = await answer("thorough", question, TERSE);
    const thorough = await answer("thorough", question, THOROUGH);
    expect(measure(terse, []).words).toBeLessThan(measure(thorough, []).words);
    expect(measure(thorough, []).headings).toBeGreaterThan(measure(terse, []).headings);
  });

  it("gives the demo reviewers a winner by their tastes: brevity for concise, depth and care for the others", async () => {
    for (const question of [example.question, "How should I name the branches of a git repository?"]) {
      const s = await scores(
        question,
        await answer("thorough", question, TERSE),
        await answer("thorough", question, THOROUGH),
      );
      expect(s.concise.A).toBeGreaterThan(s.concise.B);
      expect(s.thorough.B).toBeGreaterThan(s.thorough.A);
      expect(s.skeptic.B).toBeGreaterThan(s.skeptic.A);
    }
  });

  it("gives an arena judge a winner between the two", async () => {
    const question = example.question;
    const req = buildJudgeRequest([
      { prompt: question, a: await answer("concise", question, TERSE), b: await answer("concise", question, THOROUGH) },
    ]);
    const out = await demo.review({ model: "thorough", ...req, signal: signal() });
    expect(JSON.parse(out.raw).winner).toBe("B");
  });
});
