/** Reading the battle log export (GET /api/battles/export) in tests. */
import type { InferRequestType } from "hono/client";
import { client } from "./client";

export type ExportQuery = NonNullable<InferRequestType<typeof client.battles.export.$get>["query"]>;

/**
 * The export's lines. Read as bytes and decoded: workerd warns on `.text()` of a body whose type isn't text,
 * and NDJSON's (application/x-ndjson) isn't, though it is UTF-8 text.
 */
export async function exportedLines(query: ExportQuery): Promise<string[]> {
  const res = await client.battles.export.$get({ query });
  if (res.status !== 200) throw new Error(`GET /battles/export answered ${res.status}: ${await res.text()}`);
  return new TextDecoder()
    .decode(await res.arrayBuffer())
    .trim()
    .split("\n");
}
