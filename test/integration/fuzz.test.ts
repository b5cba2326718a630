/**
 * Hostile input at every route of the app's own route table (so a route added later is fuzzed too): whatever
 * comes in, no 5xx, no stack trace and no unhandled rejection reaches the client, and every error is the one
 * shape `{ error: { code, message } }`.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import app from "../../worker/index";
import { STREAMED_BODY_ROUTES } from "../../worker/api/body-cap";
import { castVote, createComparison, readyComparison } from "../helpers/arena";
import { bodyText } from "../helpers/body-text";
import { BASE, createRun, finished } from "../helpers/runs";

/** Fixed, so a run is repeatable: change both to explore further. A failure prints the seed that replays it. */
const SEED = 20261123;
const RUNS_PER_ROUTE = 25;
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** What a leaked stack trace or internal error looks like. The generated input never contains these. */
const LEAKS: RegExp[] = [
  /\n\s+at\s/,
  /\bat\s+\S+\s+\(?\S+\.[cm]?[jt]sx?:\d+/,
  /[\w.-]+\.[cm]?[jt]sx?:\d+(?::\d+)?/,
  /node_modules|\/work\/|file:\/\//,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|EvalError|URIError|AggregateError|DOMException)\b/,
  /D1_|SQLITE_|\bSQL logic error|no such (?:table|column)/,
  /\bError: /,
];
const leakFree = (s: string) => !LEAKS.some((re) => re.test(s));

// ---- the routes, from the app itself ----

interface Route {
  method: string;
  path: string;
}

const routes: Route[] = [
  ...new Map(
    app.routes
      .filter((r) => r.method !== "ALL" || !r.path.endsWith("*"))
      .map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }] as const),
  ).values(),
];

// Deletions go last, so they don't take away the things every other route is fuzzed against.
routes.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));

/** `:name`, `:name?` or `:name{regex}` (a regex with one level of braces inside, e.g. `{[a-z]{3}}`). */
const PARAM = /:(\w+)(\{(?:[^{}]|\{[^{}]*\})*\})?\??/g;
const paramNames = (path: string) => [...path.matchAll(PARAM)].map((m) => m[1]);

// ---- hostile values ----

/** Percent-encodes UTF-8 (a lone surrogate goes in as U+FFFD: encodeURIComponent would throw). */
const encode = (s: string) =>
  [...new TextEncoder().encode(s)]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

const HOSTILE_STRINGS = [
  "",
  " ",
  "'; DROP TABLE runs;--",
  '" OR 1=1 --',
  "1; SELECT * FROM sqlite_master",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as literal text
  "{{7*7}}${7*7}",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83dy",
  "\ud83d\ude00",
  "\u202e\u200b\ufeff",
  "e\u0301".repeat(50),
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-0",
  "0x1F",
  "9007199254740993",
  "true",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "demo:concise",
  "demo:",
  ":",
  "openai:gpt-4o-mini",
  "acme:thing",
  "left",
  "both-bad",
  "md",
  "human",
  "a".repeat(200),
  "x".repeat(50_001),
  `demo:${"z".repeat(300)}`,
];

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }).filter(leakFree) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }).filter(leakFree) },
);

const extremeNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    2 ** 31,
    -(2 ** 31),
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
    1e21,
  ),
  fc.double(),
  fc.integer(),
);

const leaf = fc.oneof(hostileString, extremeNumber, fc.boolean(), fc.constant(null));

const KNOWN_KEYS = [
  // bodies of the API today; a key it doesn't know is as good a test
  "question",
  "models",
  "settings",
  "id",
  "params",
  "temperature",
  "maxTokens",
  "systemPrompt",
  "blind",
  "selfReview",
  "selfReviewWeight",
  "autoEvaluate",
  "synthesis",
  "modelId",
  "reviewerWeights",
  "concurrency",
  "timeoutMs",
  "prompt",
  "category",
  "mode",
  "judges",
  "content",
  "choice",
  "modelIds",
  "expiresIn",
  "limitUsd",
  "usd",
  "token",
  // Chatbot Arena battles (the import)
  "model_a",
  "model_b",
  "winner",
  "tstamp",
  "question_id",
  "turn",
  "anony",
  "language",
  "judge",
  "conv_metadata",
];
const PROTO_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
];
const key = fc.oneof(fc.constantFrom(...KNOWN_KEYS), fc.constantFrom(...PROTO_KEYS), hostileString);

const anything = fc.anything({ key, values: [leaf], maxDepth: 4, maxKeys: 6, withNullPrototype: true });

/** Objects that look like the API's bodies, with hostile values where the real ones go. */
const nearValid = fc.oneof(
  fc.dictionary(key, fc.oneof(leaf, anything), { maxKeys: 8 }),
  fc.record(
    {
      question: leaf,
      models: fc.array(fc.record({ id: leaf, params: fc.option(anything) }, { requiredKeys: ["id"] }), {
        maxLength: 3,
      }),
      settings: fc.option(fc.dictionary(key, leaf)),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      prompt: leaf,
      models: fc.option(fc.array(leaf, { maxLength: 3 })),
      category: leaf,
      mode: leaf,
      params: fc.dictionary(key, leaf),
      judges: fc.array(leaf, { maxLength: 3 }),
    },
    { requiredKeys: ["prompt"] },
  ),
  fc.record({ choice: fc.oneof(leaf, fc.constantFrom("left", "right", "tie", "both-bad")) }),
  fc.record({ content: leaf }),
  fc.array(
    fc.record(
      {
        model_a: leaf,
        model_b: leaf,
        winner: leaf,
        tstamp: leaf,
        question_id: leaf,
        turn: leaf,
        anony: leaf,
        language: leaf,
        conv_metadata: anything,
      },
      { requiredKeys: [] },
    ),
    { maxLength: 4 },
  ),
);

const hostileText = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS.filter((t) => t.trim() && t.length <= 50_000)),
  fc.string({ unit: "binary", minLength: 1, maxLength: 60 }).filter((t) => !!t.trim() && leakFree(t)),
);
const demoModel = fc.constantFrom("demo:concise", "demo:thorough", "demo:skeptic");

/**
 * Bodies the API takes, each as a plain example and as an arbitrary hostile only in its free text. A route is
 * fuzzed with the shapes it accepts (found by sending the examples), so hostile text reaches the rooms, the
 * database and back out, on routes added later too.
 */
const SHAPES: { example: unknown; hostile: fc.Arbitrary<unknown> }[] = [
  {
    example: { question: "q", models: [{ id: "demo:concise" }] },
    hostile: fc.record({
      question: hostileText,
      models: fc.uniqueArray(
        demoModel.map((id) => ({ id })),
        { minLength: 1, maxLength: 2, selector: (m) => m.id },
      ),
      settings: fc.record({ systemPrompt: hostileText, autoEvaluate: fc.boolean() }),
    }),
  },
  {
    example: { prompt: "p", models: ["demo:concise", "demo:thorough"] },
    hostile: fc.record({
      prompt: hostileText,
      models: fc.constant(["demo:concise", "demo:thorough"]),
      category: hostileText,
    }),
  },
  { example: { content: "c" }, hostile: fc.record({ content: hostileText }) },
  { example: { choice: "left" }, hostile: fc.record({ choice: fc.constantFrom("left", "right", "tie", "both-bad") }) },
  {
    example: { judges: ["demo:concise"] },
    hostile: fc.record({ judges: fc.array(demoModel, { minLength: 1, maxLength: 2 }) }),
  },
  {
    example: { modelIds: ["demo:concise"] },
    hostile: fc.record({ modelIds: fc.array(demoModel, { minLength: 1, maxLength: 1 }) }),
  },
];

/** The shapes a route's validation lets through (a 404 for the made-up id still means the body was fine). */
async function shapesTakenBy(route: Route): Promise<fc.Arbitrary<unknown>[]> {
  if (["GET", "HEAD", "ALL"].includes(route.method)) return [];
  const taken: fc.Arbitrary<unknown>[] = [];
  for (const shape of SHAPES) {
    const res = await SELF.fetch(`${BASE}${route.path.replace(PARAM, () => crypto.randomUUID())}`, {
      method: route.method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(shape.example),
    });
    await res.body?.cancel();
    if (![400, 413, 415, 422].includes(res.status)) taken.push(shape.hostile);
  }
  return taken;
}

/** Bodies too big or too deep to print in a counterexample: described, built at send time. */
const SPECIALS = [
  "huge-string",
  "just-under-cap",
  "deep-array",
  "deep-object",
  "very-deep",
  "proto-pollution",
  "malformed",
  "bom",
  "binary",
  "empty",
  "stream",
] as const;
type Special = (typeof SPECIALS)[number];

const special = fc.constantFrom(...SPECIALS);

function specialBody(kind: Special): BodyInit {
  switch (kind) {
    case "huge-string":
      return JSON.stringify({ question: "q".repeat(1_100_000), prompt: "p", content: "c" });
    case "just-under-cap":
      return JSON.stringify({ question: "é".repeat(500_000), models: [{ id: "demo:concise" }] });
    case "deep-array":
      return "[".repeat(1000) + "]".repeat(1000);
    case "deep-object":
      return `${'{"a":'.repeat(1000)}1${"}".repeat(1000)}`;
    case "very-deep":
      return "[".repeat(200_000) + "]".repeat(200_000);
    case "proto-pollution":
      return '{"__proto__":{"polluted":true,"isAdmin":true},"constructor":{"prototype":{"polluted":true}},"question":"q","models":[{"id":"demo:concise","__proto__":{"x":1}}]}';
    case "malformed":
      return '{"question": "unterminated';
    case "bom":
      return '\ufeff{"question":"q"}';
    case "binary":
      return new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28, 0xed, 0xa0, 0x80]);
    case "empty":
      return "";
    case "stream":
      // no Content-Length: the body arrives chunked
      return new Blob(['{"choice":"left","content":"c",', '"prompt":"p"}']).stream();
  }
}

type Body =
  | { kind: "none" }
  | { kind: "json"; value: unknown }
  | { kind: "special"; special: Special }
  | { kind: "text"; text: string };

const bodyFor = (shapes: fc.Arbitrary<unknown>[]): fc.Arbitrary<Body> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
    { weight: 4, arbitrary: nearValid.map((value) => ({ kind: "json" as const, value })) },
    {
      weight: shapes.length ? 4 : 0,
      arbitrary: (shapes.length ? fc.oneof(...shapes) : fc.constant({})).map((value) => ({
        kind: "json" as const,
        value,
      })),
    },
    { weight: 2, arbitrary: anything.map((value) => ({ kind: "json" as const, value })) },
    { weight: 2, arbitrary: special.map((s) => ({ kind: "special" as const, special: s })) },
    { weight: 1, arbitrary: hostileString.map((text) => ({ kind: "text" as const, text })) },
  );

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant("application/json") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/json; charset=utf-16",
      "application/json-seq",
      "application/jsonx",
      "application/merge-patch+json",
      "text/plain",
      "text/html",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=----x",
      "application/xml",
      "*/*",
      "",
      "none",
    ),
  },
);

const QUERY_KEYS = [
  "cursor",
  "limit",
  "format",
  "since",
  "source",
  "category",
  "minAppearances",
  "order",
  "includeFlagged",
  "anchor",
  "anchorRating",
  "rounds",
  "style",
  "importId",
  "offset",
  "token",
];

const query = fc.oneof(
  fc.constant(""),
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.constantFrom(...PROTO_KEYS), hostileString),
        fc.oneof(hostileString, extremeNumber.map(String)),
      ),
      { maxLength: 5 },
    )
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&")}` : "")),
  fc.constantFrom(
    "?limit=1e309",
    "?limit=-1",
    "?limit=0x10",
    "?cursor=Infinity:x",
    "?cursor=1:%00",
    "?cursor=:",
    "?rounds=1000&source=all",
    "?since=-1",
    "?format=pdf",
    "?anchor=x&anchorRating=NaN",
    "?offset=1e9",
    "?%",
    "?a=%zz",
    "?limit=1&limit=2",
    "?__proto__[x]=1",
  ),
  // valid, at the edges
  fc.constantFrom(
    "?rounds=0",
    "?source=judge&order=elo",
    "?order=trueskill&source=import",
    "?style=true&category=%3Cscript%3E",
    "?anchor=demo:concise&anchorRating=100000",
    "?minAppearances=1000000000",
    "?includeFlagged=1&source=all&order=winRate",
    "?format=md",
    "?since=999999999",
    "?offset=1000000000&importId=x",
    "?limit=100&cursor=0:",
  ),
);

const HOSTILE_SEGMENTS = [
  "..",
  ".",
  "..%2f..%2fetc%2fpasswd",
  "%2e%2e%2f",
  "%00",
  "%",
  "%zz",
  "%E0%A4%A",
  "%ED%A0%80",
  "%F0%9F%98%80",
  "%20",
  "undefined",
  "null",
  "00000000-0000-0000-0000-000000000000",
  "x".repeat(4000),
];

// ---- sending and checking ----

interface Sample {
  method: string;
  path: string;
  query: string;
  contentType: string;
  body: Body;
  headers: Record<string, string>;
}

function describeSample(s: Sample): string {
  const shown =
    s.body.kind === "json"
      ? JSON.stringify(s.body.value)
      : s.body.kind === "special"
        ? `<${s.body.special}>`
        : s.body.kind === "text"
          ? JSON.stringify(s.body.text)
          : "<none>";
  return `${s.method} ${(s.path + s.query).slice(0, 300)} [${s.contentType}] ${(shown ?? "undefined").slice(0, 300)} ${JSON.stringify(s.headers).slice(0, 200)}`;
}

function bodyOf(b: Body): BodyInit | undefined {
  if (b.kind === "none") return undefined;
  if (b.kind === "special") return specialBody(b.special);
  if (b.kind === "text") return b.text;
  return JSON.stringify(b.value) ?? "undefined";
}

async function send(s: Sample): Promise<Response> {
  const headers = new Headers(s.headers);
  const payload = s.method === "GET" || s.method === "HEAD" ? undefined : bodyOf(s.body);
  if (payload !== undefined && s.contentType !== "none") headers.set("Content-Type", s.contentType);
  return SELF.fetch(`${BASE}${s.path}${s.query}`, { method: s.method, headers, body: payload });
}

/** Throws, naming the request, unless the response is one a hostile client may see. */
async function check(s: Sample, res: Response): Promise<void> {
  const fail = (why: string, text = "") => {
    throw new Error(`${why}\n  request: ${describeSample(s)}\n  answer: ${res.status} ${text.slice(0, 600)}`);
  };
  if (res.status === 101) {
    res.webSocket?.accept();
    res.webSocket?.close(1000, "fuzzed");
    return;
  }
  const text = await bodyText(res);
  if (res.status < 300 && text && res.headers.get("content-type")?.startsWith("application/json"))
    harvest(JSON.parse(text));
  if (res.status >= 500) fail("a 5xx reached the client", text);
  if (!leakFree(text)) fail("the body looks like a stack trace or an internal error", text);
  for (const [name, value] of res.headers)
    if (!leakFree(value)) fail(`the ${name} header looks like an internal error`, value);
  if (res.status === 405 && !res.headers.get("Allow")) fail("a 405 without Allow", text);
  if (res.status < 400 || s.method === "HEAD") return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    fail("an error that is not JSON", text);
  }
  const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (typeof error?.code !== "string" || !error.code || typeof error.message !== "string" || !error.message.trim())
    fail("an error not in the one shape", text);
}

// ---- the existing things a path param may name ----

const ids: string[] = [];

/** Ids and tokens in a successful answer join the pool, so a route added later is fuzzed with things that exist. */
function harvest(value: unknown, depth = 0): void {
  if (ids.length >= 60 || depth > 6 || value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" && /(?:^id|Id|token)$/.test(k) && /^[\w-]{8,200}$/.test(v) && !ids.includes(v))
      ids.push(v);
    else harvest(v, depth + 1);
  }
}

/** Unhandled rejections fail the run in vitest anyway; this names them in the test that caused them. */
const rejections: unknown[] = [];
const onRejection = (event: PromiseRejectionEvent) => rejections.push(event.reason);

beforeAll(async () => {
  globalThis.addEventListener("unhandledrejection", onRejection);
  // a done run, a fresh one, a comparison with a vote and one without
  const run = await createRun({ question: "Fuzz me?", models: [{ id: "demo:concise" }, { id: "demo:thorough" }] });
  ids.push(
    run,
    await createRun({
      question: "Still running?",
      models: [{ id: "demo:concise" }],
      settings: { autoEvaluate: false },
    }),
  );
  const comparison = await readyComparison(["openai:fuzz-gpt", "anthropic:fuzz-claude"]);
  ids.push(comparison.comparison.id, (await castVote(comparison.comparison.id, "left")).voteId);
  ids.push((await createComparison({ prompt: "Unvoted?", models: ["google:fuzz-gemini", "openai:fuzz-gpt"] })).id);
  await finished(run);
}, 30_000);

afterAll(() => {
  globalThis.removeEventListener("unhandledrejection", onRejection);
});

const segment = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ids) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom("demo", "openai", "anthropic", "google", "openai-compatible") },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 2, arbitrary: hostileString.filter((s) => s !== "").map(encode) },
  );

const headerValue = fc.oneof(
  fc.constantFrom("", " ", "x".repeat(300), "'; DROP TABLE votes;--", "<script>", "%00"),
  fc
    .string({ unit: "binary-ascii", maxLength: 30 })
    .map((s) => s.replace(/[^\x20-\x7e]/g, "").trim())
    .filter(leakFree),
);

/** Sometimes, with `weight` in 10. */
const sometimes = <T>(arb: fc.Arbitrary<T>, weight: number) =>
  fc.oneof({ weight: 10 - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary: arb });

// A foreign Origin is refused before anything else looks at the request, so it comes rarely.
const extraHeaders = fc
  .record({
    "X-Client-Id": sometimes(headerValue, 4),
    "Idempotency-Key": sometimes(headerValue, 4),
    Upgrade: sometimes(fc.constantFrom("websocket", "h2c", ""), 3),
    Origin: sometimes(fc.constantFrom(BASE, "null", "https://evil.example"), 1),
  })
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

function sampleFor(route: Route, shapes: fc.Arbitrary<unknown>[]): fc.Arbitrary<Sample> {
  const names = paramNames(route.path);
  return fc
    .record({
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constant(route.method === "ALL" ? "GET" : route.method) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      params: fc.tuple(...names.map(() => segment())),
      query,
      contentType,
      body: bodyFor(shapes),
      headers: extraHeaders,
    })
    .map(({ params, headers, ...rest }) => {
      let i = 0;
      // fetch makes any upgrade request a GET, which would hide the method under test
      const { Upgrade, ...others } = headers;
      return {
        ...rest,
        headers: rest.method === "GET" && Upgrade !== undefined ? { ...others, Upgrade } : others,
        path: route.path.replace(PARAM, () => params[i++]),
      };
    });
}

/** A stable seed per route, so a route added later doesn't reshuffle every other route's cases. */
const seedOf = (route: Route) =>
  [...`${route.method} ${route.path}`].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) | 0, SEED);

describe("hostile input at every route", () => {
  it("finds the routes in the app's own route table", () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes).toContainEqual({ method: "POST", path: "/api/runs" });
    expect(routes).toContainEqual({ method: "DELETE", path: "/api/votes/:voteId" });
  });

  for (const route of routes) {
    it(`${route.method} ${route.path} answers without a 5xx, a stack trace or an error outside the one shape`, async () => {
      const seed = seedOf(route);
      const shapes = await shapesTakenBy(route);
      try {
        await fc.assert(
          fc.asyncProperty(sampleFor(route, shapes), async (s) => {
            await check(s, await send(s));
          }),
          { seed, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
        );
      } catch (err) {
        console.error(`fuzz of ${route.method} ${route.path} failed with seed ${seed}`);
        throw err;
      }
      expect(rejections).toEqual([]);
    }, 60_000);
  }
});

// ---- methods and content types, route by route ----

/** The methods a concrete path takes, read from the route table apart from the middleware under test. */
const patternOf = (route: Route) =>
  new RegExp(
    `^${route.path.replace(PARAM, (_, _name: string, re?: string) => (re ? `(?:${re.slice(1, -1)})` : "[^/]+")).replace(/\*/g, ".*")}$`,
  );

function methodsFor(path: string): Set<string> {
  const taken = new Set<string>();
  for (const r of routes) if (patternOf(r).test(path)) taken.add(r.method);
  if (taken.has("GET")) taken.add("HEAD");
  return taken;
}

const concrete = (route: Route) => route.path.replace(PARAM, () => crypto.randomUUID());

async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const { error } = await res.json<{ error: { code: string; message: string } }>();
  expect(typeof error.code).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

describe("wrong methods and content types", () => {
  it("answers every method a known path doesn't take with a 405 that lists the ones it does in Allow", async () => {
    for (const route of routes) {
      const path = concrete(route);
      if (!patternOf(route).test(path)) continue; // a param with a pattern a uuid doesn't fit
      const taken = methodsFor(path);
      for (const method of METHODS.filter((m) => !taken.has(m))) {
        const res = await SELF.fetch(`${BASE}${path}`, {
          method,
          headers: { "content-type": "text/plain" },
          body: method === "GET" || method === "HEAD" ? undefined : "x",
        });
        expect(res.status, `${method} ${route.path}`).toBe(405);
        expect(new Set(res.headers.get("Allow")!.split(", ")), `${method} ${route.path}`).toEqual(taken);
        if (method !== "HEAD") expect((await errorOf(res)).code).toBe("method_not_allowed");
      }
    }
  });

  it("keeps the 404 for a path no route knows, whatever the method and body", async () => {
    for (const [method, path] of [
      ["GET", "/api/nope"],
      ["POST", "/api/runs/x/y/z"],
      ["DELETE", "/api/"],
      ["PUT", "/api/runs/x/cancel/extra"],
    ]) {
      const res = await SELF.fetch(`${BASE}${path}`, {
        method,
        headers: { "content-type": "text/plain" },
        body: method === "GET" ? undefined : "x",
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await errorOf(res)).code).toBe("not_found");
    }
  });

  it("refuses a body in anything but JSON with a 415 on every route that takes one", async () => {
    for (const route of routes.filter(
      (r) =>
        !["GET", "HEAD"].includes(r.method) &&
        !STREAMED_BODY_ROUTES.some((s) => s.method === r.method && s.path === r.path),
    )) {
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/json-seq",
        "application/jsonx",
        "text/json",
      ]) {
        const res = await SELF.fetch(`${BASE}${concrete(route)}`, {
          method: route.method,
          headers: { "content-type": type },
          body: "{}",
        });
        expect(res.status, `${route.method} ${route.path} as ${type}`).toBe(415);
        expect((await errorOf(res)).code).toBe("unsupported_media_type");
      }
    }
  });
});

// ---- the classics, by hand ----

const json = (method: string, path: string, value: unknown, headers: Record<string, string> = {}) =>
  SELF.fetch(`${BASE}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: typeof value === "string" ? value : JSON.stringify(value),
  });

/** A request that must be refused in the one shape, with `status` and, when given, `code`. */
async function refused(
  res: Promise<Response>,
  status: number,
  code?: string,
  label = "",
): Promise<{ code: string; message: string }> {
  const answer = await res;
  const text = await bodyText(answer.clone());
  expect(answer.status, `${label} ${text.slice(0, 300)}`).toBe(status);
  expect(leakFree(text), text.slice(0, 300)).toBe(true);
  const error = await errorOf(answer);
  if (code) expect(error.code).toBe(code);
  return error;
}

describe("a battery of classic hostile requests", () => {
  it("stores SQL and HTML in a question as text, and the tables are still there", async () => {
    const question = "'; DROP TABLE runs;-- <script>alert(1)</script> \" OR 1=1 --";
    const res = await json("POST", "/api/runs", { question, models: [{ id: "demo:concise" }] });
    expect(res.status).toBe(201);
    const { id } = await res.json<{ id: string }>();
    const detail = await (await SELF.fetch(`${BASE}/api/runs/${id}`)).json<{ run: { question: string } }>();
    expect(detail.run.question).toBe(question);
    expect((await SELF.fetch(`${BASE}/api/runs?limit=100`)).status).toBe(200);
  });

  it("answers SQL, HTML, traversal and control characters in an id with a JSON 404 (a withdrawal, with its refusal for the receipt)", async () => {
    const CLIMBS_OUT = ["%2e%2e"];
    for (const id of [
      "'%3B%20DROP%20TABLE%20runs%3B--",
      "1%20OR%201%3D1",
      "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
      "..%2f..%2fetc%2fpasswd",
      "%2e%2e",
      "%00",
      "%ED%A0%80",
      "%zz",
      "x".repeat(8000),
    ]) {
      for (const path of [`/api/runs/${id}`, `/api/comparisons/${id}`, `/api/runs/${id}/export?format=md`]) {
        const res = await SELF.fetch(`${BASE}${path}`);
        expect(res.status, path.slice(0, 100)).toBe(404);
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        await refused(Promise.resolve(res), 404, "not_found");
      }
      // A withdrawal asks for the receipt before any lookup; an id that climbs out of /api/votes/ reaches no route.
      if (CLIMBS_OUT.includes(id)) {
        await refused(SELF.fetch(`${BASE}/api/votes/${id}`, { method: "DELETE" }), 404, "not_found");
        continue;
      }
      await refused(SELF.fetch(`${BASE}/api/votes/${id}`, { method: "DELETE" }), 401, "receipt_required");
      await refused(
        SELF.fetch(`${BASE}/api/votes/${id}`, { method: "DELETE", headers: { "X-Vote-Receipt": "0".repeat(32) } }),
        403,
        "wrong_receipt",
      );
    }
  });

  it("refuses prototype-pollution keys and pollutes nothing", async () => {
    await refused(json("POST", "/api/runs", specialBody("proto-pollution") as string), 400, "invalid_request");
    await refused(
      json("POST", "/api/comparisons", '{"prompt":"p","__proto__":{"blind":false}}'),
      400,
      "invalid_request",
    );
    await refused(
      json("POST", "/api/runs", {
        question: "q",
        models: [{ id: "demo:concise" }],
        settings: { constructor: { prototype: { x: 1 } } },
      }),
      400,
      "invalid_request",
    );
    const leaderboard = await SELF.fetch(`${BASE}/api/leaderboard?__proto__=x&constructor=y&toString=z`);
    expect(leaderboard.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("isAdmin");
  });

  it("refuses a body over 1 MiB with a 413, and deep nesting and broken JSON with a 400", async () => {
    await refused(json("POST", "/api/runs", specialBody("huge-string") as string), 413, "too_large");
    await refused(json("POST", "/api/comparisons", { prompt: "p".repeat(1_100_000) }), 413, "too_large");
    await refused(json("POST", "/api/runs", specialBody("just-under-cap") as string), 400, "invalid_request");
    await refused(json("POST", "/api/runs", specialBody("deep-array") as string), 400, "invalid_request");
    await refused(json("POST", "/api/comparisons", specialBody("deep-object") as string), 400, "invalid_request");
    await refused(json("POST", "/api/runs", specialBody("very-deep") as string), 400);
    await refused(json("POST", "/api/runs", specialBody("malformed") as string), 400, "bad_request");
    await refused(json("POST", "/api/runs", ""), 400, "bad_request");
    await refused(json("POST", "/api/runs", "null"), 400, "invalid_request");
    await refused(json("POST", "/api/runs", "[]"), 400, "invalid_request");
    await refused(json("POST", "/api/runs", '"a string"'), 400, "invalid_request");
    await refused(json("POST", "/api/runs", "1e999"), 400, "invalid_request");
    await refused(
      SELF.fetch(`${BASE}/api/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new Uint8Array([0xff, 0xfe, 0x7b]),
      }),
      400,
    );
  });

  it("refuses numbers at the extremes and strings where numbers go", async () => {
    for (const settings of [
      { temperature: 1e308 },
      { temperature: -0.0001 },
      { maxTokens: 1.5 },
      { maxTokens: 2 ** 53 + 2 },
      { concurrency: "4" },
      { timeoutMs: null },
      { selfReviewWeight: "NaN" },
    ]) {
      await refused(
        json("POST", "/api/runs", { question: "q", models: [{ id: "demo:concise" }], settings }),
        400,
        "invalid_request",
      );
    }
    for (const q of [
      "limit=1e309",
      "limit=-1",
      "limit=0.5",
      "limit=NaN",
      "limit=1&limit=2",
      "cursor=Infinity:x",
      "cursor=:",
    ])
      await refused(SELF.fetch(`${BASE}/api/runs?${q}`), 400, undefined, q);
    for (const q of [
      "rounds=1e9",
      "anchor=x&anchorRating=NaN",
      "anchorRating=1e999&anchor=x",
      "minAppearances=0",
      "includeFlagged=yes",
      "source=__proto__",
      "order=constructor",
    ])
      await refused(SELF.fetch(`${BASE}/api/leaderboard?${q}`), 400, undefined, q);
  });

  it("takes unicode edge cases in text without a 5xx: lone surrogates, RTL overrides, zero widths, combining marks", async () => {
    for (const question of [
      "\ud800",
      "x\udfffy",
      "\u202eevil\u200b\ufeff",
      "e\u0301".repeat(2000),
      "\u0000null byte",
      "🙂".repeat(1000),
    ]) {
      const res = await json("POST", "/api/runs", { question, models: [{ id: "demo:concise" }] });
      expect(res.status, JSON.stringify(question).slice(0, 40)).toBe(201);
    }
    for (const body of [
      { prompt: "\u200b\u200b", models: ["demo:\ud800", "demo:x"] },
      { prompt: "\ud83d", category: "\u202e" },
    ]) {
      const res = await json("POST", "/api/comparisons", body);
      expect(res.status, await bodyText(res.clone())).toBeLessThan(500);
      expect(leakFree(await bodyText(res))).toBe(true);
    }
  });

  it("refuses model ids that aren't, with a 400 that names the field", async () => {
    for (const id of [
      "'; DROP TABLE models;--",
      "<script>:x",
      "demo:",
      ":",
      "a".repeat(10_000),
      "__proto__:x",
      "constructor:prototype",
    ]) {
      const error = await refused(json("POST", "/api/runs", { question: "q", models: [{ id }] }), 400);
      expect(error.message).toMatch(/model|provider/i);
    }
  });

  it("answers hostile headers without a 5xx", async () => {
    const [{ id }] = (await (await SELF.fetch(`${BASE}/api/comparisons`)).json<{ items: { id: string }[] }>()).items;
    const idempotent = await json(
      "POST",
      `/api/comparisons/${id}/votes`,
      { choice: "left" },
      { "Idempotency-Key": "k".repeat(5000) },
    );
    await refused(Promise.resolve(idempotent), 400, "invalid_request");
    const hostile: Record<string, string>[] = [
      { "X-Client-Id": "x".repeat(8000) },
      { "X-Client-Id": "'; DROP TABLE model_votes;--" },
      { "Idempotency-Key": "<script>" },
    ];
    for (const headers of hostile) {
      const res = await json("POST", `/api/comparisons/${id}/votes`, { choice: "tie" }, headers);
      expect(res.status, JSON.stringify(headers).slice(0, 60)).toBeLessThan(500);
      expect(leakFree(await bodyText(res))).toBe(true);
    }
  });

  it("imports hostile battle lines as rejected lines, not a 5xx", async () => {
    const lines = [
      specialBody("proto-pollution"),
      '{"model_a":"'.concat("a".repeat(100_000), '","model_b":"b","winner":"model_a","tstamp":1}'),
      '{"model_a":"x","model_b":"x","winner":"model_a","tstamp":1e999}',
      '{"model_a":"\\ud800","model_b":"<script>","winner":"tie","tstamp":-1}',
      "'; DROP TABLE battles;--",
      "[".repeat(5000),
      "null",
      '{"model_a":{"__proto__":1},"model_b":[],"winner":null}',
    ].join("\n");
    const res = await SELF.fetch(`${BASE}/api/battles/import?importId=fuzz`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: lines,
    });
    expect(res.status, await bodyText(res.clone())).toBeLessThan(500);
    expect(leakFree(await bodyText(res))).toBe(true);
    await refused(
      SELF.fetch(`${BASE}/api/battles/import?importId=..%2f..`, { method: "POST", body: "[]" }),
      400,
      "invalid_request",
    );
    await refused(
      SELF.fetch(`${BASE}/api/battles/import?offset=-1`, { method: "POST", body: "[]" }),
      400,
      "invalid_request",
    );
  });

  it("serves nothing through path tricks", async () => {
    for (const path of [
      "/api/runs/../../etc/passwd",
      "/api/%2e%2e/%2e%2e/wrangler.toml",
      "/api//runs",
      "/api/runs//",
      "/api/runs/%2F",
      "/api/health/..%5c..%5c",
    ]) {
      const res = await SELF.fetch(`${BASE}${path}`);
      expect(res.status, path).toBeLessThan(500);
      const text = await bodyText(res);
      expect(leakFree(text), path).toBe(true);
      expect(text).not.toMatch(/root:|compatibility_date/);
    }
  });

  it("answers a leaderboard with no battles in it, in every source and order", async () => {
    const category = crypto.randomUUID();
    for (const source of ["human", "judge", "import", "all"])
      for (const order of ["bt", "elo", "trueskill", "winRate"]) {
        const res = await SELF.fetch(`${BASE}/api/leaderboard?source=${source}&order=${order}&category=${category}`);
        expect(res.status, `${source} ${order}: ${await bodyText(res.clone())}`).toBe(200);
      }
  });

  it("refuses a streamed body that isn't JSON with a 415 too (no Content-Length to go by)", async () => {
    const stream = () => new Blob(["{}"]).stream();
    await refused(
      SELF.fetch(`${BASE}/api/runs/${crypto.randomUUID()}/answers`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: stream(),
      }),
      415,
      "unsupported_media_type",
    );
    await refused(SELF.fetch(`${BASE}/api/runs`, { method: "POST", body: stream() }), 415, "unsupported_media_type");
  });

  it("answers very long URLs and query strings without a 5xx", async () => {
    for (const url of [
      `/api/runs?cursor=${"9".repeat(20_000)}:x`,
      `/api/leaderboard?category=${"c".repeat(30_000)}`,
      `/api/runs/${"r".repeat(30_000)}`,
      `/api/leaderboard?${"a=1&".repeat(5000)}`,
    ]) {
      const res = await SELF.fetch(`${BASE}${url}`);
      expect(res.status, url.slice(0, 60)).toBeLessThan(500);
      const text = await bodyText(res);
      expect(leakFree(text)).toBe(true);
      if (res.status >= 400)
        expect(JSON.parse(text)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });

  it("refuses hostile credentials with a 401 in the one shape when APP_TOKEN is set", async () => {
    const withToken = async (headers: Record<string, string>, path = "/api/runs") => {
      const ctx = createExecutionContext();
      const res = await app.fetch(
        new Request(`https://quorum.example.com${path}`, { headers }),
        { ...env, APP_TOKEN: "s3cret" },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    const hostile: Record<string, string>[] = [
      { Authorization: "Bearer" },
      { Authorization: `Bearer ${"x".repeat(20_000)}` },
      { Authorization: "Basic czNjcmV0Og==" },
      { Authorization: "Bearer '; DROP TABLE runs;--" },
      { Authorization: "Bearer s3cret%00" },
      { Authorization: "Bearer  s3cret x" },
      { Upgrade: "websocket", "Sec-WebSocket-Protocol": "quorum, quorum-token.%%%not-base64" },
      { Upgrade: "websocket", "Sec-WebSocket-Protocol": "quorum, quorum-token.____" },
      { Upgrade: "websocket", "Sec-WebSocket-Protocol": `quorum-token.${"A".repeat(10_000)}` },
    ];
    for (const headers of hostile) {
      const path = headers.Upgrade ? `/api/runs/${crypto.randomUUID()}/ws` : "/api/runs";
      await refused(withToken(headers, path), 401, "unauthorized", JSON.stringify(headers).slice(0, 80));
    }
  });

  it("reaches no client with an unhandled rejection", () => {
    expect(rejections).toEqual([]);
  });
});
