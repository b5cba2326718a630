import { createMemo, Show, Suspense } from "solid-js";
import { Dynamic } from "solid-js/web";
import { AccessTokenForm } from "./components/access-token-form";
import { SpendLine } from "./components/spend-line";
import { accessProblem, forgetToken, token, tokenVersion } from "./lib/access";
import { Link, path } from "./lib/router";
import { matchRoute } from "./routes";

/** The frame around every page: a skip link, the header with navigation, and the current page. */
export function App() {
  const match = createMemo(() => matchRoute(path()));
  // A share link's page is all its visitor may see: no way into the rest of the app, never an access-token prompt.
  const shared = () => path().startsWith("/shared/");
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <Show when={!shared()} fallback={<span class="brand">Quorum</span>}>
          <Link href="/" class="brand">
            Quorum
          </Link>
          <nav aria-label="Main">
            <Link href="/">New run</Link>
            <Link href="/history">History</Link>
            <Link href="/chat">Chat</Link>
            <Link href="/arena">Arena</Link>
            <Link href="/leaderboard">Leaderboard</Link>
            <Link href="/evaluations">Evaluations</Link>
            <Link href="/goal-battles">Battles</Link>
            <Link href="/providers">Providers</Link>
          </nav>
          <SpendLine />
        </Show>
      </header>
      <main id="main" tabindex="-1">
        {/* A refused token replaces the page; a new token (or none) starts the page over, so what failed loads again. */}
        <Show when={!accessProblem() || shared()} fallback={<AccessTokenForm />}>
          <Show when={tokenVersion() + 1} keyed>
            <Suspense fallback={<p class="muted">Loading…</p>}>
              <Dynamic component={match().page} params={match().params} />
            </Suspense>
          </Show>
        </Show>
      </main>
      <Show when={token()}>
        <footer class="site-footer">
          <span class="muted small">This browser keeps an access token for this Quorum.</span>{" "}
          <button type="button" class="link-button small" onClick={forgetToken}>
            Forget token
          </button>
        </footer>
      </Show>
    </>
  );
}
