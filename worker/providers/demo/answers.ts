/** The demo models' answers: the prepared one for an example question, else an honest note that this is the demo. */
import { findExample } from "./examples";
import { honestReply } from "./honest";
import type { DemoStyle } from "./models";

/** Ends every prepared answer, so nobody takes it for a live one. One streamed chunk: a cut never halves it. */
export const DEMO_NOTICE =
  "_Offline demo: a prepared answer to one of Quorum's example questions. Connect a provider for live answers._";

export function writeAnswer(style: DemoStyle, question: string): string {
  const example = findExample(question);
  return example ? withNotice(example.answers[style].text) : honestReply(style, question);
}

export const withNotice = (text: string) => `${text}\n\n${DEMO_NOTICE}`;
