import { onCleanup } from "solid-js";
import type { ScrollSync } from "./scroll-sync";

/** Puts `el` in `sync` for as long as the calling component lives: its scrolling moves the others, theirs moves it. */
export function followScroll(sync: ScrollSync, el: HTMLElement): void {
  const stop = sync.add(el);
  const onScroll = () => sync.scrolled(el);
  el.addEventListener("scroll", onScroll, { passive: true });
  onCleanup(() => {
    stop();
    el.removeEventListener("scroll", onScroll);
  });
}
