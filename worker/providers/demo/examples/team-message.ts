import type { Example } from "./types";

export const teamMessage: Example = {
  id: "team-message",
  title: "Announce a cluster move",
  kind: "writing",
  question:
    "Write a Slack message of at most three sentences telling the ML team that evaluation jobs move to the new GPU cluster on Monday, and what they need to change.",
  ranking: ["concise", "skeptic", "thorough"],
  answers: {
    concise: {
      text: `Heads-up: from Monday, evaluation jobs run on the new GPU cluster, and the old eval queue stops taking jobs that morning. To move, change \`cluster: gpu-eval\` to \`cluster: gpu-eval-2\` in your job config and run \`make eval-smoke\` once to check your access. Questions go to #ml-infra, and the old cluster stays read-only until Friday so you can copy past results.`,
      strengths: [
        "Three sentences, as asked, covering when, what to change and where to ask.",
        "The change is concrete: the exact config line and a one-command check.",
        "It answers the next question (what about old results) before anyone asks.",
      ],
      weaknesses: [],
      scores: { correctness: 9, completeness: 9, clarity: 9, helpfulness: 9, safety: 9, overall: 9 },
    },
    skeptic: {
      text: `Evaluation jobs should move to the new GPU cluster on Monday, assuming the migration checks pass this week. Please update your job configs to point at the new cluster; the exact setting is in the migration doc. If anything breaks, let us know in #ml-infra before Wednesday so we can look into it.`,
      strengths: ["Three sentences, polite, and it says where to report problems."],
      weaknesses: [
        "The hedging ('should', 'assuming the checks pass') leaves readers unsure whether Monday is real.",
        "It sends people to a doc instead of saying what to change, which is half of what was asked.",
      ],
      scores: { correctness: 7, completeness: 6, clarity: 7, helpfulness: 6, safety: 9, overall: 6.6 },
    },
    thorough: {
      text: `## Evaluation jobs are moving!

Hi team! We're excited to share that starting **Monday**, all evaluation jobs will run on our new GPU cluster.

## Why

The new cluster has more memory per GPU and shorter queues, so evals should finish noticeably faster.

## What you need to do

1. Change \`cluster: gpu-eval\` to \`cluster: gpu-eval-2\` in your job config.
2. Run \`make eval-smoke\` to confirm your credentials work.
3. Re-submit any scheduled jobs after Monday.

## Timeline

- **Monday:** the old queue stops accepting jobs.
- **Friday:** the old cluster becomes read-only.

## Questions?

Ping us in #ml-infra. Thanks, everyone!`,
      strengths: ["It has every fact the team needs, and the steps are concrete."],
      weaknesses: [
        "It ignores the three-sentence limit: this is a dozen sentences with headings.",
        "Headings and a banner title are out of place in a Slack message.",
      ],
      scores: { correctness: 8, completeness: 8, clarity: 6, helpfulness: 5, safety: 9, overall: 5.5 },
    },
  },
  synthesis: `From Monday, evaluation jobs run on the new GPU cluster, and the old eval queue stops taking jobs that morning. To move, change \`cluster: gpu-eval\` to \`cluster: gpu-eval-2\` in your job config and run \`make eval-smoke\` once to check your access. Questions go to #ml-infra; the old cluster stays read-only until Friday so you can copy past results.`,
};
