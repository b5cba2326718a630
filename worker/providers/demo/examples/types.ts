/** The shape of a prepared example: a question, each demo model's answer to it, and what a reviewer makes of each. */
import type { ExampleKind } from "../../../shared/constants";
import type { DefaultScores as Scores } from "../../../shared/run";
import type { DemoStyle } from "../models";

export type { ExampleKind };

export interface PreparedAnswer {
  /** the answer as the model streams it (the demo notice is added after it) */
  text: string;
  /** what a careful reviewer would praise, most important first; each a whole sentence */
  strengths: string[];
  /** what a careful reviewer would flag, most important first; empty when nothing is wrong */
  weaknesses: string[];
  /** what the answer deserves on each criterion (0–10); each reviewer's taste nudges these a little */
  scores: Scores;
}

export interface Example {
  /** a stable slug, used by the page to tell the examples apart */
  id: string;
  /** the chip's label: a few words */
  title: string;
  kind: ExampleKind;
  question: string;
  answers: Record<DemoStyle, PreparedAnswer>;
  /** the demo models best first, as their answers deserve: every demo reviewer's scores agree with it */
  ranking: [DemoStyle, DemoStyle, DemoStyle];
  /** the chair's final answer, for a run with a synthesis */
  synthesis: string;
}
