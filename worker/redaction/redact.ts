/**
 * Redact mode (QUORUM_REDACT): secrets in what a person types are masked before it is stored or sent to
 * any provider. The shapes come from secretlint's recommended preset, a maintained rule set, plus Quorum's
 * own rules for what it lacks. Both scan the text with invisible characters removed, and again with keys
 * split by one space joined up; what either finds is masked in the text as it was sent.
 */
import { marker, REDACTION_KINDS, type RedactionKind, type Redactions } from "../shared/redact";
import type { Finding } from "./finding";
import { ownFindings } from "./own-rules";
import { secretlintFindings } from "./secretlint";
import { joined, normalised, type View } from "./views";

export interface Redacted {
  text: string;
  redactions: Redactions;
}

/** Where findings of several kinds overlap, the mark names the most specific. */
// REDACTION_KINDS is listed most specific first.
const PRECEDENCE: readonly RedactionKind[] = REDACTION_KINDS;

async function findingsIn(view: View): Promise<Finding[]> {
  const found = [...(await secretlintFindings(view.text)), ...ownFindings(view.text)];
  // back to the original text's positions, spanning whatever the view left out in between
  return found
    .filter((f) => f.end > f.start)
    .map((f) => ({ kind: f.kind, start: view.from[f.start]!, end: view.from[f.end - 1]! + 1 }));
}

/** Overlapping findings become one, of the most specific kind. */
function merged(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const f of sorted) {
    const last = out.at(-1);
    if (last && f.start < last.end) {
      last.end = Math.max(last.end, f.end);
      if (PRECEDENCE.indexOf(f.kind) < PRECEDENCE.indexOf(last.kind)) last.kind = f.kind;
    } else out.push({ ...f });
  }
  return out;
}

/** Masks every secret in `text` with a marker such as `[redacted: api key]` and counts them per kind. */
export async function redact(text: string): Promise<Redacted> {
  const plain = normalised(text);
  const found = merged([...(await findingsIn(plain)), ...(await findingsIn(joined(plain)))]);
  const redactions: Redactions = {};
  let out = "";
  let at = 0;
  for (const f of found) {
    out += text.slice(at, f.start) + marker(f.kind);
    at = f.end;
    redactions[f.kind] = (redactions[f.kind] ?? 0) + 1;
  }
  return { text: out + text.slice(at), redactions };
}
