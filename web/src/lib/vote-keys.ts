import { onCleanup } from "solid-js";
import type { VoteChoice } from "../../../worker/shared/arena";
import { CHOICES } from "./arena-state";

/**
 * Keys 1–4 cast the vote CHOICES gives them while `votable()`, from anywhere on the page but a field being typed
 * in (or with a modifier held). The listener goes when the component that set it up does.
 */
export function voteByKeys(votable: () => boolean, vote: (choice: VoteChoice) => unknown): void {
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.repeat || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target instanceof Element ? e.target : null;
    if (target?.closest("input, textarea, select, [contenteditable]")) return;
    const c = CHOICES.find((x) => x.key === e.key);
    if (!c || !votable()) return;
    e.preventDefault();
    void vote(c.choice);
  };
  document.addEventListener("keydown", onKey);
  onCleanup(() => document.removeEventListener("keydown", onKey));
}
