/**
 * Downloads from the API. A plain `<a href download>` can't send the access token, so with a token set
 * the click fetches the file with the header and saves it from an object URL instead. Without a token the
 * link does what links do.
 */
import { authHeaders, isAccessRefusal, reportAccessProblem, token } from "./access";

function fileNameOf(res: Response, href: string): string {
  const disposition = res.headers.get("Content-Disposition") ?? "";
  const quoted = /filename="([^"]+)"/i.exec(disposition)?.[1];
  return quoted ?? new URL(href, location.href).pathname.split("/").filter(Boolean).pop() ?? "download";
}

async function refusalMessage(res: Response): Promise<string> {
  const body: unknown = await res.json().catch(() => null);
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const message = typeof error?.message === "string" ? error.message : `The server answered ${res.status}.`;
  if (typeof error?.code === "string" && isAccessRefusal(res.status, error.code)) reportAccessProblem(message);
  return message;
}

/**
 * A download link's click handler. Resolves to null when the file was saved (or the browser handles the
 * link itself), or to the reason it couldn't be.
 */
export async function downloadWithToken(e: MouseEvent & { currentTarget: HTMLAnchorElement }): Promise<string | null> {
  if (!token() || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  e.preventDefault();
  const href = e.currentTarget.href;
  let res: Response;
  try {
    res = await fetch(href, { headers: authHeaders() });
  } catch {
    return "Can't reach the Quorum server.";
  }
  if (!res.ok) return refusalMessage(res);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = fileNameOf(res, href);
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has started the download by now; keep the object URL a moment for slow starters.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return null;
}
