/**
 * Model output is untrusted: Markdown is rendered by marked, then sanitized by DOMPurify against a
 * short allow-list. No script, event handler, style, form or frame survives; links keep only
 * http(s) and mailto targets; images never load on their own (see `blockImages`).
 */
import DOMPurify from "dompurify";
import { Marked } from "marked";

const marked = new Marked({ gfm: true, breaks: false, async: false });

const ALLOWED_TAGS = [
  "a",
  "b",
  "blockquote",
  "br",
  "code",
  "del",
  "details",
  "em",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "i",
  "img",
  "kbd",
  "li",
  "ol",
  "p",
  "pre",
  "s",
  "strong",
  "sub",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "th",
  "thead",
  "tr",
  "ul",
];
const ALLOWED_ATTR = ["href", "title", "alt", "src", "align", "start", "class", "colspan", "rowspan"];
const SAFE_LINK = /^(https?:|mailto:)/i;
const LANGUAGE_CLASS = /^language-[\w+-]{1,30}$/;

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  const cls = node.getAttribute("class");
  if (cls !== null && !LANGUAGE_CLASS.test(cls)) node.removeAttribute("class");
  if (node.tagName === "A") {
    const href = node.getAttribute("href")?.trim() ?? "";
    if (SAFE_LINK.test(href)) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer nofollow");
    } else if (node.hasAttribute("href")) {
      node.removeAttribute("href");
      node.setAttribute("title", "Link removed: only http(s) and mailto links are kept");
    }
  }
  if (node.tagName === "IMG") {
    // Park the address where the browser won't fetch it; `blockImages` swaps the image for a button.
    const src = node.getAttribute("src") ?? "";
    node.removeAttribute("src");
    if (/^https:/i.test(src)) node.setAttribute("data-src", src);
  }
});

/** Markdown → sanitized HTML string (images left without a `src`). */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text) as string;
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false });
}

/** Replaces every image in `root` by a placeholder; the person may load it with one click. */
export function blockImages(root: HTMLElement, loaded: Set<string>): void {
  for (const img of Array.from(root.querySelectorAll("img"))) {
    const src = img.dataset.src;
    const alt = img.getAttribute("alt")?.trim() || "image";
    if (src && loaded.has(src)) {
      img.replaceWith(liveImage(src, alt));
      continue;
    }
    const box = document.createElement("span");
    box.className = "image-blocked";
    const what = document.createElement("span");
    what.textContent = src
      ? `Image "${alt}" from ${hostOf(src)}`
      : `Image "${alt}" (not shown: only https images can be loaded)`;
    box.appendChild(what);
    if (src) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "small";
      button.textContent = "Load image";
      button.setAttribute("aria-label", `Load image "${alt}" from ${hostOf(src)}`);
      button.addEventListener("click", () => {
        loaded.add(src);
        box.replaceWith(liveImage(src, alt));
      });
      box.appendChild(button);
    }
    img.replaceWith(box);
  }
}

function liveImage(src: string, alt: string): HTMLImageElement {
  const img = document.createElement("img");
  img.alt = alt;
  img.referrerPolicy = "no-referrer";
  img.loading = "lazy";
  img.src = src;
  return img;
}

function hostOf(src: string): string {
  try {
    return new URL(src).host;
  } catch {
    return "another site";
  }
}
