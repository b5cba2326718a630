/**
 * Bodies past the caps under `wrangler dev`, sent by Node's fetch: a client that keeps writing until its
 * body is sent, so a server that stops reading early resets the connection under it (ECONNRESET, "other
 * side closed") and the person sees no answer at all. No browser needed.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler-dev";
import { buildWeb, startWranglerDev, type WranglerDev } from "../helpers/e2e-wrangler";

const MB = 1024 * 1024;
let server: WranglerDev;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, "web/dist/index.html"))) await buildWeb();
  server = await startWranglerDev({ QUORUM_LOG: "off" });
});

afterAll(async () => {
  await server?.close();
});

/** `size` bytes of `a`, as one buffer (sent with a Content-Length) or streamed in 1 MB pieces (chunked). */
function body(size: number, streamed: boolean): BodyInit {
  if (!streamed) return new Uint8Array(size).fill(97);
  const piece = new Uint8Array(MB).fill(97);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      controller.enqueue(piece.subarray(0, Math.min(MB, size - sent)));
      sent += MB;
    },
  });
}

async function post(
  route: string,
  type: string,
  size: number,
  streamed: boolean,
): Promise<{ status: number; error: { code: string; message: string } }> {
  const init = {
    method: "POST",
    headers: { "content-type": type },
    body: body(size, streamed),
    duplex: "half",
  } as RequestInit;
  const res = await fetch(`${server.url}${route}`, init);
  return { status: res.status, error: ((await res.json()) as { error: { code: string; message: string } }).error };
}

describe("bodies past the caps, under wrangler dev", () => {
  // Three of each: before the fix about half of such requests were reset, depending on timing.
  it.each([false, true])(
    "a 70 MB battle import (streamed: %s) is a readable 413 that points to npm run import",
    async (streamed) => {
      for (let i = 0; i < 3; i++) {
        const { status, error } = await post(
          "/api/battles/import?importId=huge",
          "application/x-ndjson",
          70 * MB,
          streamed,
        );
        expect(status).toBe(413);
        expect(error.code).toBe("too_large");
        expect(error.message).toBe(
          "This request's body is larger than 64 MB. Send at most that in one request, or import a file of any size with `npm run import -- FILE`, which sends it in chunks.",
        );
      }
    },
  );

  it("a streamed 70 MB JSON body to another route is a readable 413 too", async () => {
    for (let i = 0; i < 3; i++) {
      const { status, error } = await post("/api/runs", "application/json", 70 * MB, true);
      expect(status).toBe(413);
      expect(error.message).toBe(
        "The request body is larger than 1024 KB. Send a shorter question, prompt or message.",
      );
    }
  });
});
