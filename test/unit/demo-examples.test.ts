import { describe, expect, it } from "vitest";
import { buildJudgeRequest } from "../../worker/judges/prompt";
import { buildReviewRequest } from "../../worker/council/prompts";
import { buildSynthesisPrompt } from "../../worker/council/synthesis-prompt";
import { parseReview } from "../../worker/council/parse-review";
import { createDemoProvider, DEMO_NOTICE, EXAMPLES, type Example } from "../../worker/providers/demo";
import { streamChunks } from "../../worker/providers/demo/chunks";
import { honestReply } from "../../worker/providers/demo/honest";
import type { DemoStyle } from "../../worker/providers/demo/models";
import { MAX_NUDGE } from "../../worker/providers/demo/prepared-review";
import { quoteQuestion } from "../../worker/providers/demo/text";
import { EXAMPLE_KINDS } from "../../worker/shared/constants";

const demo = createDemoProvider({ delayMs: 0 });
const STYLES: DemoStyle[] = ["concise", "thorough", "skeptic"];
const signal = () => new AbortController().signal;

async function answer(model: string, content: string) {
  const deltas: string[] = [];
  const gen = await demo.generate({ model, messages: [{ role: "user", content }], signal: signal() }, (d) =>
    deltas.push(d),
  );
  return { text: gen.text, deltas };
}

/** Each demo model under its own label (A concise, B thorough, C skeptic), with its real streamed answer. */
async function answersTo(question: string) {
  return Promise.all(STYLES.map(async (m, i) => ({ label: "ABC"[i], text: (await answer(m, question)).text })));
}
const labelOf = (style: DemoStyle) => "ABC"[STYLES.indexOf(style)];

async function review(model: DemoStyle, req: ReturnType<typeof buildReviewRequest>) {
  const out = await demo.review({
    model,
    system: req.system,
    prompt: req.prompt,
    schema: req.schema,
    signal: signal(),
  });
  const parsed = parseReview(out.raw, req.labels);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.review;
}

describe("the demo's example questions", () => {
  it("are 8 to 12 distinct questions of at least six kinds, each with three different answers", () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(8);
    expect(EXAMPLES.length).toBeLessThanOrEqual(12);
    expect(new Set(EXAMPLES.map((e) => e.id)).size).toBe(EXAMPLES.length);
    expect(new Set(EXAMPLES.map((e) => e.question.toLowerCase())).size).toBe(EXAMPLES.length);
    expect(new Set(EXAMPLES.map((e) => e.kind)).size).toBeGreaterThanOrEqual(6);
    for (const e of EXAMPLES) {
      expect(EXAMPLE_KINDS).toContain(e.kind);
      expect(e.title.length).toBeLessThanOrEqual(32);
      expect(new Set(STYLES.map((s) => e.answers[s].text)).size).toBe(3);
      expect([...e.ranking].sort()).toEqual([...STYLES].sort());
    }
  });

  it("rank their answers by score, a point or more apart, and every answer below the best says what is wrong", () => {
    for (const e of EXAMPLES) {
      const overall = e.ranking.map((s) => e.answers[s].scores.overall);
      for (let i = 1; i < overall.length; i++) expect(overall[i - 1] - overall[i]).toBeGreaterThan(4 * MAX_NUDGE);
      for (const s of e.ranking.slice(1)) expect(e.answers[s].weaknesses.length, `${e.id} ${s}`).toBeGreaterThan(0);
      for (const s of STYLES) expect(e.answers[s].strengths.length, `${e.id} ${s}`).toBeGreaterThan(0);
    }
  });

  it("get each model's prepared answer, ending with the demo notice, even typed with other case and spacing", async () => {
    for (const e of EXAMPLES) {
      const retyped = `  ${e.question.toUpperCase().replace(/ /g, "  ").replace(/[?.]$/, "")} \n`;
      for (const s of STYLES) {
        const { text } = await answer(s, e.question);
        expect(text).toBe(`${e.answers[s].text}\n\n${DEMO_NOTICE}`);
        expect((await answer(s, retyped)).text).toBe(text);
      }
    }
  });

  it("are reviewed in the example's order by every demo reviewer, with the answers' own strengths and faults", async () => {
    for (const e of EXAMPLES) {
      const answers = await answersTo(e.question);
      for (const reviewer of STYLES) {
        const all = await review(
          reviewer,
          buildReviewRequest({ question: e.question, answers, reviewerLabel: null, selfReview: "downweight" }),
        );
        expect(all.ranking, `${e.id} reviewed by ${reviewer}`).toEqual(e.ranking.map(labelOf));
        const others = await review(
          reviewer,
          buildReviewRequest({
            question: e.question,
            answers,
            reviewerLabel: labelOf(reviewer),
            selfReview: "exclude",
          }),
        );
        expect(others.ranking).toEqual(e.ranking.filter((s) => s !== reviewer).map(labelOf));
        for (const r of all.reviews) {
          const judged = e.answers[STYLES["ABC".indexOf(r.label)]];
          expect(r.critique).toContain(judged.strengths[0]);
          if (judged.weaknesses.length) expect(r.critique).toContain(judged.weaknesses[0]);
        }
      }
    }
  });

  it("are judged in the arena for the better answer, whichever side it is on", async () => {
    for (const e of EXAMPLES) {
      const [best, , worst] = e.ranking;
      const [good, bad] = [await answer(best, e.question), await answer(worst, e.question)];
      for (const [a, b, winner] of [
        [good.text, bad.text, "A"],
        [bad.text, good.text, "B"],
      ]) {
        const req = buildJudgeRequest([{ prompt: e.question, a, b }]);
        const out = await demo.review({ model: "skeptic", ...req, signal: signal() });
        const verdict = JSON.parse(out.raw) as { winner: string; reasons: string };
        expect(verdict.winner, e.id).toBe(winner);
        expect(verdict.reasons).toContain(e.answers[best].strengths[0]);
        expect(verdict.reasons).toContain(e.answers[worst].weaknesses[0]);
      }
    }
  });

  it("get the prepared synthesis from a demo chair", async () => {
    for (const e of EXAMPLES) {
      const answers = await answersTo(e.question);
      const prompt = buildSynthesisPrompt(
        e.question,
        e.ranking.map((s, i) => ({
          rank: i + 1,
          label: labelOf(s),
          text: answers[STYLES.indexOf(s)].text,
          critiques: [],
        })),
      );
      expect((await answer("thorough", prompt)).text).toBe(`${e.synthesis}\n\n${DEMO_NOTICE}`);
    }
  });
});

describe("any other question", () => {
  const LONG =
    "We run a retrieval pipeline over product manuals with metadata filters per region and language, and I want to know how to choose chunk sizes and overlap for embeddings so that tables and numbered procedures stay intact";

  it("is quoted whole words only, cut with an ellipsis when long, by every model", async () => {
    const quoted = quoteQuestion(LONG);
    const shown = quoted.slice(1, -2);
    expect(quoted.endsWith("…”")).toBe(true);
    expect(LONG.startsWith(shown)).toBe(true);
    expect(LONG[shown.length]).toBe(" ");
    expect(shown.length).toBeLessThanOrEqual(120);
    for (const s of STYLES) {
      const { text } = await answer(s, LONG);
      expect(text).toContain(quoted);
      expect(text).toMatch(/offline demo/i);
    }
    expect(quoteQuestion("Is it fine?")).toBe("“Is it fine?”");
    expect(quoteQuestion("x".repeat(300))).toBe("“…”");
    expect(quoteQuestion("Why does `a*b` differ from _c_?")).toBe("“Why does \\`a\\*b\\` differ from \\_c\\_?”");
  });

  it("gets an honest synthesis from a demo chair", async () => {
    const prompt = buildSynthesisPrompt(LONG, [{ rank: 1, label: "A", text: "Anything.", critiques: [] }]);
    const { text } = await answer("concise", prompt);
    expect(text).toMatch(/^\*\*Offline demo: there is nothing real to combine\.\*\* No model read “We run/);
  });
});

/** Backticks and `**` outside code blocks, and single `*` emphasis: each must be even for the Markdown to close. */
function openMarkers(markdown: string): string[] {
  let fenced = false;
  const prose: string[] = [];
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) prose.push(line);
  }
  const text = prose.join("\n");
  const bold = text.split("**").length - 1;
  const ticks = (text.match(/`/g) ?? []).length;
  const stars = (text.replace(/\*\*/g, "").match(/\*/g) ?? []).length;
  return [bold % 2 ? "**" : "", ticks % 2 ? "`" : "", stars % 2 ? "*" : ""].filter(Boolean);
}

describe("a demo stream cut at any chunk", () => {
  const texts = (e: Example) => [
    ...STYLES.map((s) => `${e.answers[s].text}\n\n${DEMO_NOTICE}`),
    `${e.synthesis}\n\n${DEMO_NOTICE}`,
  ];

  it("never leaves a Markdown span or the demo notice half written", () => {
    const all = [
      ...EXAMPLES.flatMap(texts),
      ...STYLES.map((s) => honestReply(s, "How do I `grep` for **bold** text?")),
    ];
    for (const text of all) {
      const chunks = streamChunks(text);
      expect(chunks.join("")).toBe(text);
      expect(chunks.some((c) => c.includes(DEMO_NOTICE)) || !text.includes(DEMO_NOTICE)).toBe(true);
      for (let n = 1; n <= chunks.length; n++) {
        const prefix = chunks.slice(0, n).join("");
        expect(openMarkers(prefix), JSON.stringify(prefix.slice(-80))).toEqual([]);
        expect(prefix.trimEnd().endsWith("_Offline")).toBe(false);
      }
    }
  });

  it("streams table rows whole", () => {
    expect(streamChunks("Intro\n| a | b |\n| --- | --- |\nafter")).toEqual([
      "Intro\n",
      "| a | b |\n",
      "| --- | --- |\n",
      "after",
    ]);
  });
});
