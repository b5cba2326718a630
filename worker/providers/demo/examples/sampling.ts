import type { Example } from "./types";

export const sampling: Example = {
  id: "sampling",
  title: "Temperature and top-p",
  kind: "explanation",
  question:
    "Explain what temperature and top-p do when sampling from an LLM, and which settings to use for code generation.",
  ranking: ["skeptic", "concise", "thorough"],
  answers: {
    skeptic: {
      text: `At every step the model gives a score (logit) to each token in its vocabulary; sampling turns those scores into one choice.

- **Temperature** divides the logits before the softmax. Below 1 it sharpens the distribution toward the likeliest tokens; above 1 it flattens it; near 0 it approaches greedy decoding.
- **Top-p** (nucleus sampling) keeps the smallest set of tokens whose probabilities add up to at least *p*, renormalises, and samples from that set. With p = 0.9 the set may be two tokens or two hundred, depending on how confident the model is.

**For code:** temperature 0–0.2 and top-p left at 1. Change one of the two at a time; tuning both at once makes the effect hard to read.

Two caveats. Temperature 0 is not a promise of identical output: hosted APIs can still vary between calls because of batching and floating-point order. And if you sample several candidates and keep the one that passes tests, a higher temperature (around 0.6–0.8) gives more useful variety. Some reasoning models ignore or reject these settings altogether.`,
      strengths: [
        "Both definitions are exact, including that top-p keeps a variable number of tokens.",
        "The advice for code is concrete and explains when to raise the temperature.",
        "It corrects the common belief that temperature 0 is fully deterministic.",
      ],
      weaknesses: ["A small worked example of the probabilities would make the effect easier to picture."],
      scores: { correctness: 10, completeness: 9, clarity: 8, helpfulness: 9, safety: 9, overall: 9.1 },
    },
    concise: {
      text: `**Temperature** scales how random the choice of each next token is: low is focused, high is varied. **Top-p** samples only from the likeliest tokens that together hold probability p. For code, use temperature 0–0.2 and leave top-p at 1.`,
      strengths: ["The definitions are right and the recommendation for code is sensible."],
      weaknesses: [
        "It doesn't explain how temperature works (scaling the logits) or why low values suit code.",
        "Nothing on when a higher temperature helps, such as sampling several candidates.",
      ],
      scores: { correctness: 9, completeness: 5, clarity: 9, helpfulness: 7, safety: 9, overall: 7.2 },
    },
    thorough: {
      text: `## Overview

Two settings control how an LLM picks each next token.

## Temperature

Temperature scales the logits before the softmax:

1. **Low (0–0.3):** the likeliest token almost always wins.
2. **Medium (0.7):** a balance, the usual chat default.
3. **High (above 1):** more surprising, and more errors.

At temperature 0 the output is guaranteed to be identical every time, which makes it ideal for tests.

## Top-p

Top-p keeps the top p% of the vocabulary: with top-p = 0.9 the model samples from the 90% most likely tokens and drops the rest.

## For code generation

| Setting | Value | Why |
| --- | --- | --- |
| Temperature | 0.2 | correct syntax matters more than variety |
| Top-p | 0.9 | trims unlikely tokens |

## Summary

Keep both low for code, higher for creative writing.`,
      strengths: ["It is well organised and the temperature section is correct."],
      weaknesses: [
        "Top-p is described wrongly: it doesn't keep 90% of the vocabulary but the smallest set of tokens whose probabilities add up to 0.9.",
        "It claims temperature 0 guarantees identical output, which hosted APIs don't promise.",
        "Lowering top-p together with temperature contradicts the usual advice to tune one at a time.",
      ],
      scores: { correctness: 4, completeness: 7, clarity: 8, helpfulness: 5, safety: 7, overall: 5.3 },
    },
  },
  synthesis: `At each step the model scores every token in its vocabulary; two settings shape how one is chosen.

**Temperature** divides those scores (logits) before they become probabilities. Below 1 the likeliest tokens gain, above 1 the choice flattens out, and near 0 it becomes greedy decoding.

**Top-p** (nucleus sampling) keeps the smallest set of tokens whose probabilities add up to at least p, and samples from that set only. The set grows when the model is unsure and shrinks when it is confident, so top-p = 0.9 does not mean "90% of the vocabulary".

**For code generation:**

- Temperature 0–0.2, top-p left at 1.
- Change one setting at a time.
- If you generate several candidates and keep the one that passes tests, raise the temperature to about 0.6–0.8 for variety.

Temperature 0 makes output very repeatable, but not guaranteed identical: hosted APIs can still vary between calls. Some reasoning models ignore these settings or reject them.`,
};
