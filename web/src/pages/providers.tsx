import { createResource, For, onMount, Show } from "solid-js";
import { Alert } from "../components/alert";
import { DevVarsSnippet } from "../components/dev-vars-snippet";
import { ProviderCard } from "../components/provider-card";
import { ApiError, api, call } from "../lib/api";
import { Link } from "../lib/router";

/** Each provider's status and why, a connection test for the configured ones, and the lines that add the others. */
export default function ProvidersPage() {
  onMount(() => (document.title = "Providers · Quorum"));
  const [setups] = createResource(async () => {
    try {
      return { providers: (await call(api.providers.$get())).providers, error: null };
    } catch (err) {
      return { providers: [], error: err instanceof ApiError ? err.message : "The providers could not be loaded." };
    }
  });
  const missingLines = () => (setups()?.providers ?? []).flatMap((p) => p.missingLines);

  return (
    <section class="page providers-page">
      <h1>Providers</h1>
      <p class="muted">
        Which model providers this Quorum can call, and why. Test a configured one to check its key or server. A model
        with your own system prompt and parameters is a <Link href="/presets">preset</Link>.
      </p>
      <Show when={setups()} fallback={<p class="muted">Loading…</p>}>
        {(loaded) => (
          <>
            <Alert message={loaded().error} />
            <Show when={!loaded().error}>
              <ul class="provider-list">
                <For each={loaded().providers}>{(setup) => <ProviderCard setup={setup} />}</For>
              </ul>
              <DevVarsSnippet lines={missingLines()} />
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}
