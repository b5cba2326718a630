import { createResource, For, Show } from "solid-js";
import { api, call } from "../../lib/api";
import { Alert } from "../alert";
import { Markdown } from "../markdown";

/** One item: the prompt, every answer side by side, and each judge's verdict with its reasons, in both orders. */
export function ItemDetail(props: { id: string; itemId: string; names: Map<string, string>; onClose: () => void }) {
  const [item] = createResource(
    () => props.itemId,
    async (itemId) => {
      try {
        return {
          data: await call(api.evaluations[":id"].items[":itemId"].$get({ param: { id: props.id, itemId } })),
          error: null,
        };
      } catch (err) {
        return { data: null, error: err instanceof Error ? err.message : String(err) };
      }
    },
  );
  const name = (id: string) => props.names.get(id) ?? id;
  return (
    <section class="item-detail" aria-labelledby="item-detail-title" data-testid="item-detail">
      <h3 id="item-detail-title">
        Item {props.itemId}{" "}
        <button type="button" class="secondary small" onClick={() => props.onClose()}>
          Close
        </button>
      </h3>
      <Alert message={item()?.error ?? null} />
      <Show when={item()?.data}>
        {(d) => (
          <>
            <blockquote class="prompt">{d().prompt}</blockquote>
            <Show when={d().reference}>
              <details>
                <summary>Reference answer</summary>
                <Markdown text={d().reference ?? ""} />
              </details>
            </Show>
            <div class="answers-side-by-side">
              <For each={d().answers}>
                {(a) => (
                  <article class="card">
                    <h4>
                      {name(a.contestant)}
                      <Show when={a.sample > 0}> (sample {a.sample + 1})</Show>
                    </h4>
                    <Show when={a.status === "complete"} fallback={<p class="field-error">Failed: {a.error}</p>}>
                      <Markdown text={a.text} />
                    </Show>
                  </article>
                )}
              </For>
            </div>
            <Show when={d().reviews}>
              {(reviews) => (
                <>
                  <h4>Reviews</h4>
                  <ul class="verdicts" data-testid="council-reviews">
                    <For each={reviews()}>
                      {(r) => (
                        <li>
                          <strong>{name(r.reviewer)}</strong>
                          <Show when={r.sample > 0}> (sample {r.sample + 1})</Show>:{" "}
                          <Show when={r.ranking} fallback={<span class="field-error">failed ({r.error})</span>}>
                            {(ranking) => <span>{ranking().map(name).join(" › ")}</span>}
                          </Show>
                          <For each={r.reviews}>
                            {(v) => (
                              <p class="muted">
                                {name(v.contestant)}: {v.critique}
                              </p>
                            )}
                          </For>
                        </li>
                      )}
                    </For>
                  </ul>
                </>
              )}
            </Show>
            <Show when={d().battles}>
              {(battles) => (
                <>
                  <h4>Goal battles</h4>
                  <ul class="verdicts" data-testid="goal-battles">
                    <For each={battles()}>
                      {(b) => (
                        <li>
                          <a href={`/goal-battles/${encodeURIComponent(b.battleId)}`}>
                            {name(b.first)} (A) vs {name(b.second)} (B)
                          </a>
                          <Show when={b.sample > 0}> (sample {b.sample + 1})</Show>:{" "}
                          <Show
                            when={b.status === "complete"}
                            fallback={<span class="field-error">no contest ({b.error})</span>}
                          >
                            {b.winner === "tie" ? "a tie" : `${name(b.winner === "A" ? b.first : b.second)} won`}
                          </Show>
                          <Show when={b.turns !== null}> in {b.turns} turns</Show>
                          <Show when={b.rationale}>
                            <p class="muted">{b.rationale}</p>
                          </Show>
                        </li>
                      )}
                    </For>
                  </ul>
                </>
              )}
            </Show>
            <Show when={!d().reviews && !d().battles}>
              <h4>Verdicts</h4>
              <ul class="verdicts">
                <For each={d().judgments}>
                  {(j) => (
                    <li>
                      <strong>{name(j.judge)}</strong>, {name(j.first)} shown as A and {name(j.second)} as B:{" "}
                      <Show when={j.verdict} fallback={<span class="field-error">failed ({j.error})</span>}>
                        <code>{j.verdict}</code>
                      </Show>
                      <Show when={j.reasons}>
                        <p class="muted">{j.reasons}</p>
                      </Show>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}
