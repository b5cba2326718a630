/** Reading the battle log export (GET /api/battles/export) in tests. */
import type { InferRequestType } from "hono/client";
import { bodyText } from "./body-text";
import { client } from "./client";

export type ExportQuery = NonNullable<InferRequestType<typeof client.battles.export.$get>["query"]>;

/** The export's lines. */
export async function exportedLines(query: ExportQuery): Promise<string[]> {
  const res = await client.battles.export.$get({ query });
  if (res.status !== 200) throw new Error(`GET /battles/export answered ${res.status}: ${await res.text()}`);
  return (await bodyText(res)).trim().split("\n");
}
