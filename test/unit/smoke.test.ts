import { env, SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("health answers", async () => {
  const res = await SELF.fetch("http://x/api/health");
  expect(res.status).toBe(200);
  const rows = await env.DB.prepare("select count(*) as n from runs").first<{ n: number }>();
  expect(rows?.n).toBe(0);
});
