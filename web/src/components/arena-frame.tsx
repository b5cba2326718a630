import type { JSX } from "solid-js";

/** The arena's heading and one-line explanation around either state of the page. */
export function ArenaFrame(props: { status?: JSX.Element; children: JSX.Element }) {
  return (
    <section class="page arena-page" aria-labelledby="arena-title">
      <div class="section-head">
        <h1 id="arena-title">Arena</h1>
        {props.status}
      </div>
      <p class="muted">
        Two anonymous models answer the same prompt. Vote for the better answer; their names are revealed after your
        vote.
      </p>
      {props.children}
    </section>
  );
}
