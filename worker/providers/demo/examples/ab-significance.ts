import type { Example } from "./types";

export const abSignificance: Example = {
  id: "ab-significance",
  title: "Is 58 of 100 significant?",
  kind: "statistics",
  question:
    "Model A beat model B in 58 of 100 blind pairwise comparisons (no ties). Is A really better, or could this be chance?",
  ranking: ["skeptic", "thorough", "concise"],
  answers: {
    skeptic: {
      text: `It could well be chance.

If the two models were equally good, the number of A's wins would be about 50 ± 5 (the standard deviation of a binomial with n = 100 and p = 0.5). 58 is 1.6 standard deviations above 50: the exact two-sided binomial p-value is about **0.13**, and the 95% interval for A's true win rate is roughly **48% to 67%**. That includes 50%, so the data doesn't establish that A is better, though it leans that way.

To confirm a true 58% win rate with 80% power at the 5% level, you need about **300** comparisons.

Before collecting more, check how these 100 were run:

- Were sides randomised? Judges and people both favour one position.
- Do the prompts reflect your real use, or one kind of task?
- Don't split the results by category after the fact looking for a significant slice.`,
      strengths: [
        "The numbers are right: a two-sided p-value of about 0.13 and an interval of about 48–67%.",
        "It says how many comparisons would settle it (about 300).",
        "It checks how the comparisons were run: position bias, prompt mix, slicing after the fact.",
      ],
      weaknesses: [],
      scores: { correctness: 10, completeness: 9, clarity: 9, helpfulness: 9, safety: 9, overall: 9.2 },
    },
    thorough: {
      text: `## Setting up the test

- Null hypothesis: A and B are equally good, so A wins with probability p = 0.5.
- Observed: 58 wins in n = 100.

## The calculation

1. Standard error under the null: √(0.5 × 0.5 / 100) = 0.05.
2. z = (0.58 − 0.50) / 0.05 = 1.6.
3. Two-sided p-value ≈ 0.11 (normal approximation).

## Confidence interval

0.58 ± 1.96 × √(0.58 × 0.42 / 100) ≈ 0.58 ± 0.097, so about **48% to 68%**.

## Conclusion

The result is not significant at the 5% level: the interval contains 50%. A is probably not worse than B, but 100 comparisons can't show that it is better.`,
      strengths: [
        "The test is set up properly, and the conclusion (not significant at 5%) is right.",
        "Every step of the calculation is shown.",
      ],
      weaknesses: [
        "The normal approximation without continuity correction gives 0.11; the exact binomial p-value is about 0.13 (no change to the conclusion).",
        "It doesn't say how many comparisons would be enough, or check how the comparisons were run.",
      ],
      scores: { correctness: 8, completeness: 7, clarity: 9, helpfulness: 7, safety: 9, overall: 7.6 },
    },
    concise: {
      text: `**Yes.** 58% is clearly above 50%, so A is the better model.`,
      strengths: ["It is direct."],
      weaknesses: [
        "Wrong: with 100 comparisons, 58 wins is well within chance (two-sided p ≈ 0.13).",
        "It states a conclusion the data can't support, with no uncertainty at all.",
      ],
      scores: { correctness: 1, completeness: 1, clarity: 8, helpfulness: 1, safety: 5, overall: 2.3 },
    },
  },
  synthesis: `**Not yet: 58 of 100 is consistent with chance.**

If the models were equally good, A's wins would be about 50 ± 5. 58 is 1.6 standard deviations above that: the exact two-sided binomial p-value is about 0.13, and the 95% interval for A's true win rate is about 48% to 67%. It includes 50%, so the data leans toward A but doesn't establish that it is better.

**How much more data:** to confirm a true 58% win rate with 80% power at the 5% level, you need about 300 comparisons.

**Check the setup first:**

- Randomise which side each model appears on; judges and people both favour one position.
- Use prompts that reflect how you will really use the models.
- Decide any breakdown by category before looking, not after.`,
};
