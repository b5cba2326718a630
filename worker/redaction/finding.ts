import type { RedactionKind } from "../shared/redact";

/** A secret's place in a text: the characters [start, end) are masked as one `kind`. */
export interface Finding {
  start: number;
  end: number;
  kind: RedactionKind;
}
