import { createSignal, For, Show } from "solid-js";
import { ApiError, api, call, type ProviderSetup, type ProviderTestResult } from "../lib/api";

const STATUS_WORDS: Record<ProviderSetup["status"], string> = {
  available: "Available",
  not_configured: "Not configured",
  error: "Error",
};

/** One provider: its status and why, a connection test once it is configured, and a server's models. */
export function ProviderCard(props: { setup: ProviderSetup }) {
  const [testing, setTesting] = createSignal(false);
  const [result, setResult] = createSignal<ProviderTestResult | null>(null);
  const [failure, setFailure] = createSignal<string | null>(null);
  const titleId = () => `provider-${props.setup.id}`;

  const test = async () => {
    setTesting(true);
    setResult(null);
    setFailure(null);
    try {
      setResult(await call(api.providers[":provider"].test.$post({ param: { provider: props.setup.id } })));
    } catch (err) {
      setFailure(err instanceof ApiError ? err.message : "The test could not be sent.");
    } finally {
      setTesting(false);
    }
  };

  const outcome = () => {
    const r = result();
    if (r?.ok) return `Connected: ${r.message}${r.latencyMs === null ? "" : ` (${r.latencyMs} ms)`}`;
    if (r) return `Failed: ${r.message}`;
    return failure() ? `Failed: ${failure()}` : "";
  };

  return (
    <li class="card provider-card" aria-labelledby={titleId()} data-provider={props.setup.id}>
      <div class="card-head">
        <div>
          <h2 id={titleId()}>{props.setup.displayName}</h2>
          <p class="provider-reason">{props.setup.reason}</p>
        </div>
        <span class={`status provider-status-${props.setup.status}`}>{STATUS_WORDS[props.setup.status]}</span>
      </div>
      <Show when={props.setup.models.length > 0}>
        <p class="small">Models on this server:</p>
        <ul class="provider-models">
          <For each={props.setup.models}>
            {(name) => (
              <li>
                <code>{name}</code>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={props.setup.status !== "not_configured"}>
        <div class="row">
          <button
            type="button"
            onClick={() => void test()}
            disabled={testing()}
            aria-describedby={`${titleId()}-result`}
          >
            {testing() ? "Testing…" : "Test connection"}
          </button>
        </div>
        <p
          id={`${titleId()}-result`}
          class="small"
          classList={{ "provider-ok": result()?.ok === true, "provider-failed": outcome().startsWith("Failed") }}
          role="status"
        >
          {outcome()}
        </p>
      </Show>
    </li>
  );
}
