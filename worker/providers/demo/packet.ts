/** Reads a review request the way a reviewer would: the question, the answers, and the labels to rank. */

export interface PacketAnswer {
  label: string;
  text: string;
}

export interface Packet {
  question: string;
  answers: PacketAnswer[];
}

const HEADING = /^#{1,6}\s*(Question|Answer\s+(\S+))\s*$/;

/** Finds the question and each "Answer X" section; a section's body runs to the line equal to its own fence. */
export function readPacket(prompt: string): Packet {
  const lines = prompt.split("\n");
  let question = "";
  const answers: PacketAnswer[] = [];
  for (let i = 0; i < lines.length; i++) {
    const heading = HEADING.exec(lines[i]);
    if (!heading) continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const fence = /^(`{3,})\s*$/.exec(lines[j] ?? "")?.[1];
    const body: string[] = [];
    for (j = fence ? j + 1 : j; j < lines.length; j++) {
      if (fence ? lines[j] === fence : HEADING.test(lines[j])) break;
      body.push(lines[j]);
    }
    const text = body.join("\n").trim();
    if (heading[2]) answers.push({ label: heading[2], text });
    else question = text;
    i = fence ? j : j - 1;
  }
  return { question, answers };
}

const child = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** The labels to rank, as the review schema's ranking enum lists them. */
export function schemaLabels(schema: Record<string, unknown>): string[] | null {
  const labels = child(child(child(child(schema, "properties"), "ranking"), "items"), "enum");
  return Array.isArray(labels) && labels.every((l) => typeof l === "string") ? labels : null;
}
