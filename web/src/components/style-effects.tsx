import { For, Show } from "solid-js";

export interface StyleFeature {
  name: string;
  beta: number;
  lower: number | null;
  upper: number | null;
  oddsFactor: number;
}

export type StyleState =
  | null
  | { status: "computing" }
  | { status: "refused"; notice: string }
  | { status: "ready"; battles: number; withoutFeatures: number; features: StyleFeature[] };

const FEATURE_TEXT: Record<string, string> = {
  tokens: "Longer answers",
  headers: "Answers with more headers",
  lists: "Answers with more list items",
  bold: "Answers with more bold text",
};

const times = (x: number) => `×${x.toFixed(2)}`;

/** Style control asked for on battles with no style metadata: say so, rather than a fit over nothing. */
function NothingToFit(props: { withoutFeatures: number }) {
  return (
    <p class="callout" role="status" data-testid="style-nothing-to-fit">
      Style control has nothing to fit:{" "}
      {props.withoutFeatures
        ? `none of the ${props.withoutFeatures} ${props.withoutFeatures === 1 ? "battle" : "battles"} in this view carries`
        : "this view has no battles with"}{" "}
      style metadata (answer length, headers, lists, bold). Arena votes cast here record it; an imported log has it only
      when its lines carry FastChat's <code>conv_metadata</code>. The ratings above are the plain ones.
    </p>
  );
}

/** What style control found: how much each style feature sways a vote at equal strength. */
export function StyleEffects(props: { style: StyleState }) {
  return (
    <Show when={props.style}>
      {(style) => (
        <Show
          when={style().status === "ready" ? (style() as Extract<StyleState, { status: "ready" }>) : null}
          fallback={
            <p class="callout" role="status">
              {(() => {
                const current = style();
                return current.status === "refused"
                  ? current.notice
                  : "Style control is being fitted in the background; the plain ratings are shown until it is ready.";
              })()}
            </p>
          }
        >
          {(ready) => (
            <Show when={ready().battles > 0} fallback={<NothingToFit withoutFeatures={ready().withoutFeatures} />}>
              <section class="style-effects" aria-labelledby="style-effects-title">
                <h2 id="style-effects-title">Style effects</h2>
                <p class="muted small">
                  Ratings above hold style equal (Chatbot Arena's style control) over {ready().battles} battles with
                  style features
                  {ready().withoutFeatures ? `; ${ready().withoutFeatures} without them are left out of this fit` : ""}.
                  Each line: how many times as often the side one standard deviation ahead on that feature wins as it
                  loses, at equal strength.
                </p>
                <ul>
                  <For each={ready().features}>
                    {(f) => (
                      <li>
                        {FEATURE_TEXT[f.name] ?? f.name}: {times(f.oddsFactor)}
                        <Show when={f.lower !== null && f.upper !== null}>
                          {" "}
                          <span class="muted">
                            (95%: {times(Math.exp(f.lower!))}–{times(Math.exp(f.upper!))})
                          </span>
                        </Show>
                      </li>
                    )}
                  </For>
                </ul>
              </section>
            </Show>
          )}
        </Show>
      )}
    </Show>
  );
}
