/**
 * A few lines of client-side routing: the path is a signal, links push history entries.
 * (@solidjs/router costs ~7 KB gzip, an eighth of the page's budget, for features this app doesn't use.)
 */
import { createSignal, splitProps, type JSX } from "solid-js";

const [path, setPath] = createSignal(location.pathname);
export { path };

addEventListener("popstate", () => setPath(location.pathname));

export function navigate(to: string): void {
  if (to === location.pathname) return;
  history.pushState(null, "", to);
  setPath(location.pathname);
  scrollTo(0, 0);
  // Tell assistive technology the page changed: focus moves to the new page's main region.
  queueMicrotask(() => document.getElementById("main")?.focus({ preventScroll: true }));
}

/** An in-app link: a real <a href> (so it opens in a new tab too) that navigates without a reload. */
export function Link(props: JSX.AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const [own, rest] = splitProps(props, ["href"]);
  return (
    <a
      {...rest}
      href={own.href}
      aria-current={path() === own.href || (own.href !== "/" && path().startsWith(`${own.href}/`)) ? "page" : undefined}
      onClick={(e) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(own.href);
      }}
    />
  );
}
