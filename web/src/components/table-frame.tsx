import type { JSX } from "solid-js";

interface Props {
  /** the id of the table's caption, which names the frame too */
  labelledBy?: string;
  /** the frame's name, where the table has no caption element of its own */
  label?: string;
  /** the rows' headers stay at the left edge while the columns scroll (styles.css, at phone width) */
  pinned?: boolean;
  children: JSX.Element;
}

/**
 * A table's frame, which scrolls sideways when the table is wider than the screen. It is a named region in the
 * Tab order, so a keyboard can reach it and scroll it with the arrow keys, and a screen reader says what it holds.
 */
export function TableFrame(props: Props) {
  return (
    <div
      class="table-wrap"
      classList={{ pinned: !!props.pinned }}
      tabindex="0"
      role="region"
      aria-labelledby={props.labelledBy}
      aria-label={props.label}
    >
      {props.children}
    </div>
  );
}
