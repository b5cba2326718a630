import { createSignal, onCleanup } from "solid-js";

/** The width at and below which the page lays itself out for a phone (styles.css's `max-width: 40rem`). */
export const PHONE_QUERY = "(max-width: 40rem)";

/** Whether `query` matches, kept up to date for as long as the calling component lives. */
export function createMediaQuery(query: string): () => boolean {
  const list = window.matchMedia(query);
  const [matches, setMatches] = createSignal(list.matches);
  const onChange = (e: MediaQueryListEvent) => setMatches(e.matches);
  list.addEventListener("change", onChange);
  onCleanup(() => list.removeEventListener("change", onChange));
  return matches;
}
