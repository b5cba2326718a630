import { createSignal, Show, type JSX } from "solid-js";
import { downloadWithToken } from "../lib/download";

/** A link to an API download that also works when the server wants the access token. */
export function DownloadLink(props: { href: string; class: string; children: JSX.Element }) {
  const [error, setError] = createSignal<string | null>(null);
  return (
    <>
      <a
        class={props.class}
        href={props.href}
        download=""
        onClick={(e) => {
          setError(null);
          void downloadWithToken(e).then(setError);
        }}
      >
        {props.children}
      </a>
      <Show when={error()}>
        <span class="field-error small" role="alert">
          {error()}
        </span>
      </Show>
    </>
  );
}
