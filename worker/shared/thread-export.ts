/** A chat thread as a download: Markdown with a heading per message naming who wrote it, or JSON. */
import { nestHeadings } from "./markdown-headings";
import type { ThreadDetail, ThreadMessage } from "./thread";

const STATUS_NOTE: Partial<Record<ThreadMessage["status"], string>> = {
  streaming: "still being written",
  failed: "failed",
  awaiting_vote: "two blind answers, waiting for the vote",
  awaiting_choice: "a tie: waiting for the side that continues",
};

function heading(m: ThreadMessage): string {
  if (m.role === "user") return "## You";
  const who = m.modelId === null ? "Assistant" : `${m.displayName ?? m.modelId} (\`${m.modelId}\`)`;
  const note = STATUS_NOTE[m.status];
  return `## ${who}${note ? ` — ${note}` : ""}`;
}

export function threadMarkdown(detail: ThreadDetail): string {
  const { thread, messages } = detail;
  const lines = [`# ${thread.title}`, ""];
  if (thread.systemPrompt) lines.push(`System prompt: ${thread.systemPrompt}`, "");
  for (const m of messages) {
    lines.push(heading(m), "");
    if (m.reason) lines.push(`_${m.reason}_`, "");
    if (m.comparisonId) lines.push(`_Voted in arena comparison ${m.comparisonId}_`, "");
    if (m.error) lines.push(`_Error: ${m.error}_`, "");
    if (m.content) lines.push(nestHeadings(m.content, 2), "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

export const threadJson = (detail: ThreadDetail) => `${JSON.stringify(detail, null, 2)}\n`;
