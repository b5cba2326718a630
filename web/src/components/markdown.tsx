import { createEffect, onCleanup } from "solid-js";
import { blockImages, renderMarkdown } from "../lib/markdown";

/**
 * Untrusted Markdown, rendered safely. While an answer streams, the text changes on every token:
 * rendering waits for the next animation frame so a burst of tokens costs one render.
 */
export function Markdown(props: { text: string; id?: string; class?: string }) {
  let el!: HTMLDivElement;
  let frame = 0;
  let latest = "";
  const loaded = new Set<string>();
  const paint = () => {
    frame = 0;
    el.innerHTML = renderMarkdown(latest);
    blockImages(el, loaded);
  };
  createEffect(() => {
    latest = props.text;
    if (!frame) frame = requestAnimationFrame(paint);
  });
  onCleanup(() => cancelAnimationFrame(frame));
  return <div ref={el} id={props.id} class={`markdown ${props.class ?? ""}`} />;
}
