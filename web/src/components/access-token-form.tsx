import { createSignal, onMount, Show } from "solid-js";
import { accessProblem, saveToken, token } from "../lib/access";

/** Asked for when the server refuses the page for want of its access token (or a right one). */
export function AccessTokenForm() {
  const [value, setValue] = createSignal("");
  const [empty, setEmpty] = createSignal(false);
  let input!: HTMLInputElement;
  onMount(() => {
    document.title = "Access token · Quorum";
    input.focus();
  });
  const save = (e: Event) => {
    e.preventDefault();
    if (!value().trim()) {
      setEmpty(true);
      return input.focus();
    }
    saveToken(value());
  };
  return (
    <section class="page access" aria-labelledby="access-title">
      <h1 id="access-title">{token() ? "That access token didn't work" : "This Quorum needs its access token"}</h1>
      <p class="callout error" role="alert" data-testid="access-message">
        {accessProblem()}
      </p>
      <form class="access-form" onSubmit={save} novalidate>
        <div class="field">
          <label for="access-token">Access token</label>
          <div class="row">
            <input
              id="access-token"
              ref={input}
              type="password"
              autocomplete="current-password"
              spellcheck={false}
              required
              aria-describedby="access-token-help access-token-error"
              aria-invalid={empty()}
              value={value()}
              onInput={(e) => {
                setValue(e.currentTarget.value);
                setEmpty(false);
              }}
            />
            <button type="submit" class="primary">
              Save
            </button>
          </div>
          <p id="access-token-error" class="field-error small">
            <Show when={empty()}>Enter the token first.</Show>
          </p>
          <p id="access-token-help" class="muted small">
            The server's <code>APP_TOKEN</code>. This browser keeps it (localStorage) and sends it only to this Quorum,
            with every request.
          </p>
        </div>
      </form>
    </section>
  );
}
