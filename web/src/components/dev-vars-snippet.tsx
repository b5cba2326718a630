import { createSignal, Show } from "solid-js";

/** The `.dev.vars` lines that would configure the missing providers, ready to copy, and what to restart after. */
export function DevVarsSnippet(props: { lines: string[] }) {
  const [copied, setCopied] = createSignal("");
  let box: HTMLTextAreaElement | undefined;
  const text = () => `${props.lines.join("\n")}\n`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text());
      setCopied("Copied.");
    } catch {
      box?.select();
      setCopied("Selected: press Ctrl+C (⌘C) to copy.");
    }
  };

  return (
    <section class="card dev-vars" aria-labelledby="dev-vars-title">
      <h2 id="dev-vars-title">Add a provider</h2>
      <Show
        when={props.lines.length > 0}
        fallback={<p>Every provider is configured. To change a key or a server, edit its line in .dev.vars.</p>}
      >
        <p>
          Add these lines to <code>.dev.vars</code> in the Quorum folder, fill in a key after each <code>=</code> (or
          your server's address), and leave out the ones you don't use:
        </p>
        <label for="dev-vars-lines" class="sr-only">
          Lines to add to .dev.vars
        </label>
        <textarea
          id="dev-vars-lines"
          readonly
          rows={props.lines.length}
          value={text()}
          ref={box}
          spellcheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <div class="row">
          <button type="button" onClick={() => void copy()}>
            Copy
          </button>
          <span class="small" role="status">
            {copied()}
          </span>
        </div>
      </Show>
      <p class="small">
        Quorum reads <code>.dev.vars</code> when it starts: after editing it, stop <code>npm start</code> (Ctrl+C) and
        run it again. Deployed, set each one with <code>wrangler secret put NAME</code> instead. Keys stay on the
        server: this page never receives one.
      </p>
    </section>
  );
}
