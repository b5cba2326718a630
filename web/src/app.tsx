import { createMemo, Suspense } from "solid-js";
import { Dynamic } from "solid-js/web";
import { Link, path } from "./lib/router";
import { matchRoute } from "./routes";

/** The frame around every page: a skip link, the header with navigation, and the current page. */
export function App() {
  const match = createMemo(() => matchRoute(path()));
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <Link href="/" class="brand">
          Quorum
        </Link>
        <nav aria-label="Main">
          <Link href="/">New run</Link>
          <Link href="/history">History</Link>
          <Link href="/arena">Arena</Link>
          <Link href="/leaderboard">Leaderboard</Link>
        </nav>
      </header>
      <main id="main" tabindex="-1">
        <Suspense fallback={<p class="muted">Loading…</p>}>
          <Dynamic component={match().page} params={match().params} />
        </Suspense>
      </main>
    </>
  );
}
