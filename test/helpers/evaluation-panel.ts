/**
 * The panel the evaluation tests share: three contestants over three vendors' SDKs, each answering with a fixed text
 * whose first word tells it apart, and two judges, all named by a test's tag so no two tests share a model.
 */
import { callsFor, ruleFor } from "./stub-client";

/** What each contestant answers, whatever it is asked. */
export const ANSWER_TEXT = {
  base: "BASE reply, plain.",
  good: "GOOD reply, careful.",
  flip: "FLIP reply, odd.",
} as const;
export type Contestant = keyof typeof ANSWER_TEXT;
export const CONTESTANTS = Object.keys(ANSWER_TEXT) as Contestant[];

/** The panel's model ids (`provider:<tag>-<role>`). */
export interface Panel {
  base: string;
  good: string;
  flip: string;
  j1: string;
  j2: string;
}

/** The stub's name for one of the panel's models: the model id without its provider. */
export const panelModel = (tag: string, role: keyof Panel) => `${tag}-${role}`;

/** Scripts the contestants of panel `tag` to answer with their texts; the judges are the test's to script. */
export async function scriptContestants(stub: string, tag: string): Promise<Panel> {
  for (const k of CONTESTANTS) await ruleFor(stub, panelModel(tag, k), "", { text: ANSWER_TEXT[k] });
  const m = (role: keyof Panel) => panelModel(tag, role);
  return {
    base: `openai:${m("base")}`,
    good: `anthropic:${m("good")}`,
    flip: `google:${m("flip")}`,
    j1: `openai:${m("j1")}`,
    j2: `anthropic:${m("j2")}`,
  };
}

/** How many calls of `kind` the stub has had for `model` (its stub name). */
export const callCount = async (stub: string, model: string, kind: "answer" | "review") =>
  (await callsFor(stub, model)).filter((c) => c.kind === kind).length;
