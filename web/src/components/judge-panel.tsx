import { For, type JSX, Show } from "solid-js";
import type { JudgeOrder, JudgeView, SideVerdict } from "../../../worker/shared/arena";
import { VERDICT_TEXT } from "../lib/arena-state";

/** Each judge is asked twice: first with the left side (A) shown as its "Answer A", then swapped. */
const ORDERS = [
  { leftShownAs: "A", title: "A shown first" },
  { leftShownAs: "B", title: "B shown first" },
] as const;

const FLIP_TEXT = "changed its answer when A and B swapped places, so it counts as a tie";

/**
 * "Verdict: B is better (2 of 3)", or how a tie came about, or why there is no verdict yet. It sits under the
 * panel's "Judges" heading, so it doesn't say "Judges" again.
 */
function panelText(judges: JudgeView[], panel: SideVerdict | null): string {
  const decided = judges.filter((j) => j.verdict !== null);
  const working = judges.filter((j) => j.status === "pending" || j.status === "running").length;
  const still = working ? `; ${working} still judging` : "";
  if (panel === null || !decided.length) {
    if (working) return `Waiting for ${working} ${working === 1 ? "judge" : "judges"}…`;
    return judges.length ? "No verdict: every judge failed." : "No judge has compared these answers yet.";
  }
  const count = (v: SideVerdict) => decided.filter((j) => j.verdict === v).length;
  const [a, b, t] = [count("left"), count("right"), count("tie")];
  if (panel !== "tie" || (t > a && t > b))
    return `Verdict: ${VERDICT_TEXT[panel]} (${count(panel)} of ${decided.length}${still})`;
  // An even split: say how it fell.
  const parts = [a && `${a} for A`, b && `${b} for B`, t && `${t} ${t === 1 ? "tie" : "ties"}`].filter(Boolean);
  return `Verdict: Tie (${parts.join(", ")}${still})`;
}

/** One of a judge's two answers, in the page's own A and B. */
function OrderView(props: { order: JudgeOrder | null; leftShownAs: "A" | "B"; title: string }) {
  // The judge's "A" is whichever side it was shown first.
  const letter = (judgeLetter: "A" | "B") => (judgeLetter === props.leftShownAs ? "A" : "B");
  const score = (pageLetter: "A" | "B", o: JudgeOrder) =>
    o.scores[pageLetter === "A" ? props.leftShownAs : props.leftShownAs === "A" ? "B" : "A"];
  return (
    <div class="judge-order">
      <p class="small">
        <strong>{props.title}:</strong>{" "}
        <Show when={props.order} fallback={<span class="muted">no answer</span>}>
          {(o) => (
            <>
              {o().winner === "tie" ? "called it a tie" : `picked ${letter(o().winner as "A" | "B")}`}
              <span class="muted">
                {" "}
                · scores A {score("A", o())}, B {score("B", o())}
              </span>
            </>
          )}
        </Show>
      </p>
      <Show when={props.order}>
        {(o) => (
          <>
            <p class="judge-reasons small">{o().reasons}</p>
            <Show when={props.leftShownAs === "B"}>
              <p class="muted small">In this order the judge saw B as its “Answer A” and A as its “Answer B”.</p>
            </Show>
          </>
        )}
      </Show>
    </div>
  );
}

function JudgeRow(props: { judge: JudgeView }) {
  const j = () => props.judge;
  const working = () => j().status === "pending" || j().status === "running";
  return (
    <li class="judge" data-judge={j().judgeModelId} data-status={j().status} aria-busy={working()}>
      <div class="judge-head">
        <p>
          <strong>{j().displayName}</strong>
          <Show when={j().displayName !== j().judgeModelId}>
            {" "}
            <code class="muted small">{j().judgeModelId}</code>
          </Show>
        </p>
        <p class="judge-verdict">
          <Show when={working()}>
            <span class="status">
              <span class="spinner" aria-hidden="true" />
              Judging…
            </span>
          </Show>
          <Show when={j().status === "failed"}>
            <span class="status status-failed">Failed</span>
          </Show>
          <Show when={j().verdict}>
            {(v) => (
              <>
                <strong>{VERDICT_TEXT[v()]}</strong>
                <Show when={j().flipped}>
                  {" "}
                  <span class="badge demo">flipped</span>
                </Show>
              </>
            )}
          </Show>
        </p>
      </div>
      <Show when={j().flipped}>
        <p class="small flip-note">Flipped: it {FLIP_TEXT}.</p>
      </Show>
      <Show when={j().status === "failed"}>
        <p class="callout error small">{j().error ?? "It failed without saying why."}</p>
      </Show>
      <Show when={j().orders.some((o) => o !== null)}>
        <details class="judge-orders">
          <summary>Its answers in both orders</summary>
          <For each={ORDERS}>
            {(o, i) => <OrderView order={j().orders[i()] ?? null} leftShownAs={o.leftShownAs} title={o.title} />}
          </For>
        </details>
      </Show>
    </li>
  );
}

/** After the vote: what the judges made of the round, each in turn, and the panel's majority. */
export function JudgePanel(props: { judges: JudgeView[]; panel: SideVerdict | null; children?: JSX.Element }) {
  return (
    <section class="card judges" aria-labelledby="judges-title" data-testid="judges">
      <h2 id="judges-title">Judges</h2>
      <p class="panel-verdict" data-testid="panel-verdict" role="status">
        {panelText(props.judges, props.panel)}
      </p>
      <Show when={props.judges.length}>
        <p class="muted small">
          Each judge is a model asked to compare A and B twice, the second time with their places swapped. The panel
          goes with the majority; an even split is a tie.
        </p>
        <ul class="judge-list">
          <For each={props.judges}>{(j) => <JudgeRow judge={j} />}</For>
        </ul>
      </Show>
      {props.children}
    </section>
  );
}
