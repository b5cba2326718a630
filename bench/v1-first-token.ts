/**
 * The OpenAI-compatible endpoint's cost to the first token: a streamed chat completion sent to Quorum's
 * /v1/chat/completions (a proxied model, and quorum:top, which reads the leaderboard first) against the same call
 * sent straight to the stub, each timed from the request to the first content delta read by this process.
 * A second Quorum with a day's spend cap measures what setting the call's most aside (one D1 write before the call)
 * adds. Calls go one at a time, alternating between them all, so a noisy moment on the machine hits them alike.
 */
import { rm } from "node:fs/promises";
import { type BenchContext, stubVars } from "./lib/context";
import { stubCompletions } from "./lib/relay";
import type { Row } from "./lib/report";
import { fixed, ms, p50, p95, spread } from "./lib/stats";
import { migrate, startWrangler, tempDir } from "./lib/wrangler";

const CALLS = 60;
const WARMUP = 10;
const MODEL = "v1-first";
const TARGET_MS = 10;

/** A Quorum like the shared one, with a day's spend cap far above what the bench spends and the bench model priced. */
async function cappedQuorum(ctx: BenchContext, stubUrl: string) {
  const snap = await ctx.snapshot();
  const persistTo = await tempDir("state-capped");
  ctx.onClose(() => rm(persistTo, { recursive: true, force: true }));
  await migrate(persistTo, snap.config);
  const vars = { ...stubVars(stubUrl), QUORUM_MAX_DAY_USD: "1000000", QUORUM_PRICES: `openai:${MODEL}=1:2` };
  const server = await startWrangler({ config: snap.config, persistTo, vars });
  ctx.onClose(() => server.stop());
  return server;
}

/** Milliseconds from sending `body` to `url` to reading the first SSE event with non-empty delta content. */
async function firstToken(url: string, body: object, headers: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffered = "";
  let at: number | null = null;
  for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(part, { stream: true });
    if (at === null && /"content":"[^"]/.test(buffered)) at = performance.now();
  }
  if (at === null) throw new Error(`${url} streamed no content`);
  return at - started;
}

export async function v1FirstTokenBench(ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const [stub, server] = [await ctx.stub(), await ctx.quorum()];
  const capped = await cappedQuorum(ctx, stub.url);
  stub.setProfile(MODEL, {
    answer: { delayMs: 0, chunkDelayMs: 0, text: "first token then a few more words" },
    review: {},
  });
  const messages = [{ role: "user", content: "Say something." }];
  const direct = () =>
    firstToken(
      stubCompletions(stub.url),
      { model: MODEL, messages, stream: true },
      { authorization: "Bearer sk-bench-openai" },
    );
  const proxied = () =>
    firstToken(`${server.url}/v1/chat/completions`, { model: `openai:${MODEL}`, messages, stream: true });
  const topper = () => firstToken(`${server.url}/v1/chat/completions`, { model: "quorum:top", messages, stream: true });
  const underCap = () =>
    firstToken(`${capped.url}/v1/chat/completions`, { model: `openai:${MODEL}`, messages, stream: true });

  // wrangler dev's own floor: a request that passes the same middleware and is refused before any work.
  const refused = async () => {
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "openai:v1-first", messages, n: 2 }),
    });
    await res.arrayBuffer();
    return performance.now() - started;
  };

  const samples = {
    direct: [] as number[],
    proxied: [] as number[],
    topper: [] as number[],
    capped: [] as number[],
    floor: [] as number[],
  };
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const [d, p, t, c, r] = [await direct(), await proxied(), await topper(), await underCap(), await refused()];
    if (i < WARMUP) continue;
    samples.direct.push(d);
    samples.proxied.push(p);
    samples.topper.push(t);
    samples.capped.push(c);
    samples.floor.push(r);
  }
  const f = (x: number) => ms(x, 2);
  const added = p50(samples.proxied) - p50(samples.direct);
  const addedTop = p50(samples.topper) - p50(samples.direct);
  const addedCapped = p50(samples.capped) - p50(samples.direct);
  return {
    name,
    benchmark: "/v1/chat/completions: request → first streamed token, over a direct provider call",
    baseline: `the same streamed call sent straight to the stub: ${spread(samples.direct, f)}`,
    result: `added p50: proxied model ${f(added)}, quorum:top ${f(addedTop)}, proxied under a spend cap ${f(addedCapped)}`,
    target: `p50 added ≤ ${TARGET_MS} ms`,
    verdict: Math.max(added, addedTop, addedCapped) <= TARGET_MS ? "met" : "MISSED",
    details: [
      `proxied model (openai:${MODEL}): ${spread(samples.proxied, f)}`,
      `quorum:top (no model qualifies on a fresh server, so the leaderboard is read and the fallback answers): ${spread(samples.topper, f)}`,
      `proxied model under QUORUM_MAX_DAY_USD (its most set aside in D1 before the call): ${spread(samples.capped, f)}; the hold's share, p50 capped − p50 uncapped: ${f(p50(samples.capped) - p50(samples.proxied))}`,
      `direct to the stub: ${spread(samples.direct, f)}`,
      `floor: the same POST refused by validation (n=2) after wrangler dev's proxy and every middleware, no provider call: ${spread(samples.floor, f)}`,
      `added p95: proxied ${f(p95(samples.proxied) - p95(samples.direct))}, quorum:top ${f(p95(samples.topper) - p95(samples.direct))}`,
      `${CALLS} calls each, one at a time, alternating, after ${WARMUP} warm-up rounds; includes wrangler dev's own proxy, the access check, the rate limit and the SDK call (on the shared server no spend cap is set, so no hold is written before the call; its cost is written after); ratio of p50s (proxied / direct) ${fixed(p50(samples.proxied) / p50(samples.direct))}×`,
    ],
    problems: [],
  };
}
