import { type Accessor, createSignal, onCleanup } from "solid-js";

/**
 * The width an element is shown at, followed as it changes (never below 300 px), for drawings made at that width
 * rather than scaled, so their text stays readable on a phone. Pass the returned ref to the element.
 */
export function createShownWidth(): [Accessor<number>, (el: HTMLElement) => void] {
  const [width, setWidth] = createSignal(720);
  let observer: ResizeObserver | undefined;
  onCleanup(() => observer?.disconnect());
  const measure = (el: HTMLElement) => {
    observer = new ResizeObserver(() => setWidth(Math.max(300, Math.floor(el.clientWidth))));
    observer.observe(el);
  };
  return [width, measure];
}
