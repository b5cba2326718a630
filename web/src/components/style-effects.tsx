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
            <section class="style-effects" aria-labelledby="style-effects-title">
              <h2 id="style-effects-title">Style effects</h2>
              <p class="muted small">
                Ratings above hold style equal (Chatbot Arena's style control) over {ready().battles} battles with style
                features
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
          )}
        </Show>
      )}
    </Show>
  );
}
