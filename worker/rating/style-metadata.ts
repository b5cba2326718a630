/**
 * A comparison's style features in Chatbot Arena's `conv_metadata` shape (totals over every assistant
 * turn, counted by one estimator for both sides since vendor tokenizers differ), stored on its battles
 * so style control reads votes, judges and imports alike.
 */
import { styleCountsOf } from "./style-features";

export function styleMetadataOf(left: string[], right: string[]): Record<string, number> {
  const a = styleCountsOf(left.join("\n\n"));
  const b = styleCountsOf(right.join("\n\n"));
  return {
    sum_assistant_a_tokens: a.tokens,
    header_count_a: a.headers,
    list_count_a: a.lists,
    bold_count_a: a.bold,
    sum_assistant_b_tokens: b.tokens,
    header_count_b: b.headers,
    list_count_b: b.lists,
    bold_count_b: b.bold,
  };
}
