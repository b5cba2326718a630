import { For } from "solid-js";
import { LANGUAGE_LABEL_PREFIX, PROMPT_LABELS } from "../../../worker/shared/constants";

const LABEL_TEXT: Record<string, string> = {
  coding: "Coding",
  math: "Math",
  creative_writing: "Creative writing",
  instruction_following: "Instruction following",
  hard_prompt: "Hard prompts",
  multi_turn: "Multi-turn",
  long_query: "Long queries",
};

/** A label as people read it: a category's name, or a language's code in capitals. */
export function labelText(label: string): string {
  return label.startsWith(LANGUAGE_LABEL_PREFIX)
    ? `Language: ${label.slice(LANGUAGE_LABEL_PREFIX.length).toUpperCase()}`
    : (LABEL_TEXT[label] ?? label);
}

/** The Arena's categories first, in their order, then the languages by how many prompts have them. */
function ordered(counts: { label: string; prompts: number }[], selected: string) {
  const all = new Map(counts.map((c) => [c.label, c.prompts]));
  if (selected && !all.has(selected)) all.set(selected, 0);
  const rank = (label: string) => (PROMPT_LABELS as readonly string[]).indexOf(label);
  return [...all]
    .map(([label, prompts]) => ({ label, prompts }))
    .sort((a, b) => {
      const [ra, rb] = [rank(a.label), rank(b.label)];
      if (ra !== -1 || rb !== -1) return (ra === -1 ? Infinity : ra) - (rb === -1 ? Infinity : rb);
      return b.prompts - a.prompts || (a.label < b.label ? -1 : 1);
    });
}

/** One choice among the prompt labels (or none), each with how many prompts carry it. */
export function LabelFilters(props: {
  counts: { label: string; prompts: number }[];
  selected: string;
  onSelect(label: string): void;
}) {
  return (
    <fieldset class="label-filters" aria-describedby="lb-labels-help">
      <legend>Prompt label</legend>
      <label class="chip">
        <input type="radio" name="lb-label" checked={props.selected === ""} onChange={() => props.onSelect("")} />
        All prompts
      </label>
      <For each={ordered(props.counts, props.selected)}>
        {(c) => (
          <label class="chip">
            <input
              type="radio"
              name="lb-label"
              value={c.label}
              checked={props.selected === c.label}
              onChange={() => props.onSelect(c.label)}
            />
            {labelText(c.label)} <span class="muted">({c.prompts})</span>
          </label>
        )}
      </For>
      <p id="lb-labels-help" class="muted small">
        Labels as Chatbot Arena's categories, given by rules (multi-turn, long queries, language), by the imported log
        or by the classifier model (QUORUM_CLASSIFIER). The count is of prompts with the label.
      </p>
    </fieldset>
  );
}
