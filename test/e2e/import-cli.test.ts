/**
 * `npm run import` as a person runs it: the CLI in its own process, streaming generated files to a small HTTP
 * server in this test that records every chunk and answers the way Quorum's import route does.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ParsedItem, parseItem } from "../../worker/battles/json-stream";
import { KaggleCsvReader } from "../../worker/battles/kaggle-csv";
import { WINNERS } from "../../worker/rating/battle-outcome";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const CLI_TIMEOUT = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Received {
  importId: string;
  offset: number;
  lines: string[];
  /** the body as sent */
  text: string;
  contentType: string | undefined;
  authorization: string | undefined;
}
interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

let server: Server;
let url: string;
let dir: string;
let received: Received[] = [];
/** Lets a test answer a request itself (an error, a retry); undefined means answer like the server would. */
let override: (request: Received, seen: number) => Answer | undefined = () => undefined;

function battle(i: number): Record<string, unknown> {
  const a = `model-${i % 7}`;
  return {
    question_id: `q-${i}`,
    model_a: a,
    model_b: `model-${(i % 7) + 1}`,
    winner: WINNERS[i % 4],
    judge: `arena_user_${i % 13}`,
    conversation_a: [{ role: "user", content: `Question ${i}: what is [1, {2}] "quoted"?\nThanks` }],
    turn: 1,
    anony: true,
    language: "English",
    tstamp: 1_700_000_000 + i,
    conv_metadata: {
      sum_assistant_a_tokens: i,
      header_count_a: { h1: 0, h2: i % 3 },
      bold_count_a: { "**": 1, __: 0 },
    },
  };
}

function answerLikeQuorum(request: Received): Answer {
  const parsed = request.lines.map((text, k) => parseItem({ line: request.offset + k + 1, text }));
  const errors = parsed.flatMap((p) => (p.error === undefined ? [] : [{ line: p.line, message: p.error }]));
  const report = {
    importId: request.importId,
    accepted: parsed.length - errors.length,
    rejected: errors.length,
    errors,
  };
  // As worker/api/battles.ts answers a request none of whose lines is a battle: a 422 carrying the report.
  if (report.accepted === 0)
    return {
      status: 422,
      body: { error: { code: "nothing_imported", message: "nothing was imported", details: report } },
    };
  return { status: 200, body: report };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { QUORUM_TOKEN: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [TSX, "scripts/import.ts", ...args], {
    cwd: ROOT,
    env: { ...inherited, QUORUM_IMPORT_RETRY_MS: "1", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the import CLI did not finish within ${CLI_TIMEOUT} ms\n${stdout}\n${stderr}`));
    }, CLI_TIMEOUT);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One entry per offset (the last attempt), in file order. */
const chunksByOffset = () =>
  [...new Map(received.map((r) => [r.offset, r])).values()].sort((a, b) => a.offset - b.offset);

let jsonl: string;
const N = 12_345;
/** requests being answered right now, and the most there ever were at once */
let open = 0;
let mostOpen = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "quorum-import-"));
  const lines = Array.from({ length: N }, (_, k) => battle(k + 1));
  lines[499] = { ...lines[499], winner: "left" };
  lines[11_999] = { ...lines[11_999], model_b: lines[11_999].model_a };
  jsonl = path.join(dir, "battles.jsonl");
  await writeFile(jsonl, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  server = createServer((req, res) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    res.on("finish", () => open--);
    void readBody(req).then((text) => {
      const query = new URL(req.url ?? "/", "http://x").searchParams;
      const request: Received = {
        importId: query.get("importId") ?? "",
        offset: Number(query.get("offset")),
        lines: text.split("\n").filter((l) => l !== ""),
        text,
        contentType: req.headers["content-type"],
        authorization: req.headers.authorization,
      };
      received.push(request);
      const seen = received.filter((r) => r.offset === request.offset).length;
      const answer = override(request, seen) ?? answerLikeQuorum(request);
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  mostOpen = 0;
  received = [];
  override = () => undefined;
});

describe("npm run import", () => {
  it("streams 12,345 JSON Lines in chunks of 1,000 under one import id, retrying a 503 with the same chunk", async () => {
    override = (r, seen) =>
      r.offset === 3000 && seen === 1
        ? { status: 503, body: { error: { code: "unavailable", message: "busy" } }, headers: { "retry-after": "0" } }
        : undefined;
    const { code, stdout, stderr } = await runCli([jsonl, "--url", url, "--chunk", "1000"]);
    expect(code, stderr).toBe(0);

    const chunks = chunksByOffset();
    expect(chunks.map((c) => c.offset)).toEqual(Array.from({ length: 13 }, (_, k) => k * 1000));
    expect(chunks.map((c) => c.lines.length)).toEqual([...Array(12).fill(1000), 345]);
    expect(received).toHaveLength(14);
    const retried = received.filter((r) => r.offset === 3000);
    expect(retried).toHaveLength(2);
    expect(retried[1].lines).toEqual(retried[0].lines);
    expect(new Set(received.map((r) => r.importId)).size).toBe(1);
    expect(received[0].importId).toMatch(UUID);
    expect(received.every((r) => r.contentType === "application/x-ndjson" && r.authorization === undefined)).toBe(true);
    expect(chunks.flatMap((c) => c.lines).map((l) => JSON.parse(l).question_id)).toEqual(
      Array.from({ length: N }, (_, k) => `q-${k + 1}`),
    );

    expect(stderr).toContain("retrying items 3,001–4,000 in 0.0 s (attempt 2 of 5; HTTP 503: busy)");
    expect(stdout).toContain(`as import ${received[0].importId}`);
    expect(stdout).toMatch(/accepted {2}12,343\n {2}rejected {2}2\n/);
    expect(stdout).toContain(
      'item 500: winner must be one of model_a, model_b, tie, tie (bothbad) (or both_bad); got "left"',
    );
    expect(stdout).toContain('item 12000: model_a and model_b must differ; both are "model-2"');
    expect(stdout).toMatch(/elapsed {3}\d+\.\d s, [\d,]+ items\/s/);
  });

  it("sends each element of a pretty-printed JSON array as one line, whitespace folded, with the token from QUORUM_TOKEN", async () => {
    const items = Array.from({ length: N }, (_, k) => battle(k + 1));
    const file = path.join(dir, "battles.json");
    await writeFile(file, JSON.stringify(items, null, 2));
    const { code, stdout, stderr } = await runCli([file, "--url", `${url}/`, "--chunk", "1000"], {
      QUORUM_TOKEN: "secret-token",
    });
    expect(code, stderr).toBe(0);

    const chunks = chunksByOffset();
    expect(received).toHaveLength(13);
    expect(chunks.map((c) => [c.offset, c.lines.length])).toEqual(
      Array.from({ length: 13 }, (_, k) => [k * 1000, k === 12 ? 345 : 1000]),
    );
    expect(chunks.flatMap((c) => c.lines.map((l) => JSON.parse(l)))).toEqual(items);
    expect(chunks[0].lines[0]).toMatch(
      /^\{ "question_id": "q-1", "model_a": "model-1", .* "conv_metadata": \{ "sum_assistant_a_tokens": 1, "header_count_a": \{ "h1": 0, "h2": 1 \}, .*\} \}$/,
    );
    expect(received.every((r) => r.authorization === "Bearer secret-token")).toBe(true);
    expect(stdout).toMatch(/accepted {2}12,345\n {2}rejected {2}0\n/);
  });

  it("stops on a 400 with the server's message and says how to resume, and the resumed run writes the rest under the same id", async () => {
    override = (r) =>
      r.offset === 2000
        ? { status: 400, body: { error: { code: "bad_request", message: "offset is past the end of this import" } } }
        : undefined;
    const stopped = await runCli([jsonl, "--url", url, "--chunk", "1000"]);
    expect(stopped.code).toBe(1);
    const importId = received[0].importId;
    expect(stopped.stderr).toContain(
      "Stopped: the server refused items 2,001–3,000 (HTTP 400): offset is past the end of this import.",
    );
    expect(stopped.stderr).toContain(
      `Items 1–2,000 are done. To resume without writing anything twice:\n  npm run import -- ${jsonl} --url ${url} --chunk 1000 --from 2000 --import-id ${importId}`,
    );
    expect(stopped.stdout).toContain(`Stopped importing ${jsonl} as import ${importId}`);
    // At most two chunks are ever on the wire, and it stopped long before the end of the file.
    // (A chunk after 2,000 may still go out if the one before it is answered before the 400.)
    expect(mostOpen).toBeLessThanOrEqual(2);
    expect(received.length).toBeLessThan(13);

    received = [];
    override = () => undefined;
    const resumed = await runCli([jsonl, "--url", url, "--chunk", "1000", "--from", "2000", "--import-id", importId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(chunksByOffset().map((c) => c.offset)).toEqual(Array.from({ length: 11 }, (_, k) => 2000 + k * 1000));
    expect(received.every((r) => r.importId === importId)).toBe(true);
    expect(resumed.stdout).toMatch(/accepted {2}10,344\n {2}rejected {2}1\n {2}skipped {3}2,000 \(--from\)\n/);
  });

  it("gives up after five attempts at a chunk that keeps failing", async () => {
    override = () => ({ status: 503, body: { error: { code: "unavailable", message: "down for maintenance" } } });
    const { code, stderr } = await runCli([jsonl, "--url", url, "--chunk", "20000"]);
    expect(code).toBe(1);
    expect(received.map((r) => r.offset)).toEqual([0, 0, 0, 0, 0]);
    expect(stderr).toContain(
      "Stopped: gave up on items 1–12,345 after 5 attempts; last: HTTP 503: down for maintenance.",
    );
    expect(stderr).toContain("No item is done yet.");
    expect(stderr).toMatch(/--from 0 --import-id [0-9a-f-]{36}\n/);
  });

  it("retries when nothing listens and then says how far it got", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { code, stderr } = await runCli([jsonl, "--url", `http://127.0.0.1:${closedPort}`, "--chunk", "20000"]);
    expect(code).toBe(1);
    expect(stderr.match(/^retrying items 1–12,345 in 0\.0 s \(attempt \d of 5; fetch failed/gm)).toHaveLength(4);
    expect(stderr).toContain(
      `Stopped: gave up on items 1–12,345 after 5 attempts; last: fetch failed (connect ECONNREFUSED 127.0.0.1:${closedPort}).`,
    );
  });

  it("suggests a smaller --chunk when the server answers 413", async () => {
    override = (r) =>
      r.offset === 0
        ? { status: 413, body: { error: { code: "too_large", message: "at most 10000 lines per request" } } }
        : undefined;
    const { code, stderr } = await runCli([jsonl, "--url", url, "--chunk", "12000"]);
    expect(code).toBe(1);
    expect(stderr).toContain("(HTTP 413): at most 10000 lines per request — try a smaller --chunk, e.g. --chunk 6000.");
  });

  it("rejects broken array elements itself and keeps every chunk's numbering contiguous around them", async () => {
    const ok = (i: number) => JSON.stringify(battle(i));
    const file = path.join(dir, "broken.json");
    // Item 2 has a raw newline inside a string, so it cannot be sent as one line; item 4 is an empty element.
    await writeFile(file, `[${ok(1)},\n{ "model_a": "two\nlines" },\n${ok(3)},\n,${ok(5)},${ok(6)}]\n`);
    const { code, stdout } = await runCli([file, "--url", url, "--chunk", "10"]);
    expect(code).toBe(0);
    expect(chunksByOffset().map((c) => [c.offset, c.lines.map((l) => JSON.parse(l).question_id)])).toEqual([
      [0, ["q-1"]],
      [2, ["q-3"]],
      [4, ["q-5", "q-6"]],
    ]);
    expect(stdout).toMatch(/accepted {2}4\n {2}rejected {2}2\n/);
    expect(stdout).toMatch(
      /item 2: not valid JSON: [^\n]*control character[^\n]*\n {4}item 4: the item is empty: two commas in a row, or a comma right after \[\n/,
    );
  });

  it("sends lmarena's CSV in chunks that each carry the header, its rows numbered across chunks, quoted line breaks intact", async () => {
    const header = "id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie";
    const quoted = (value: unknown) => `"${JSON.stringify(value).replaceAll('"', '""')}"`;
    // The prompt's JSON broken over a CRLF between its items, as a line break inside a quoted field.
    const row = (k: number) =>
      [
        k,
        `csv-${k % 5}`,
        `csv-${(k % 5) + 1}`,
        quoted([`Question ${k}, please`, "and again"]).replace(',""and', ',\r\n""and'),
        quoted([`Yes,\n"${k}"`, "no"]),
        quoted(["x", null]),
        k % 3 === 0 ? "1,0,0" : k % 3 === 1 ? "0,1,0" : "0,0,1",
      ].join(",");
    const file = path.join(dir, "arena-55k.csv");
    await writeFile(file, `${header}\r\n${Array.from({ length: 2500 }, (_, k) => row(k + 1)).join("\r\n")}\r\n`);
    const parsed: ParsedItem[] = [];
    override = (r) => {
      const reader = new KaggleCsvReader(r.offset);
      const items = [...reader.push(r.text), ...reader.end()];
      parsed.push(...items.map((item) => ({ ...item, line: r.offset + item.line })));
      return { status: 200, body: { importId: r.importId, accepted: items.length, rejected: 0, errors: [] } };
    };
    const { code, stdout, stderr } = await runCli([file, "--url", url, "--chunk", "1000"]);
    expect(code, stderr).toBe(0);
    const chunks = chunksByOffset();
    expect(chunks.map((c) => [c.offset, c.contentType, c.text.startsWith(`${header}\n`)])).toEqual([
      [0, "text/csv", true],
      [1000, "text/csv", true],
      [2000, "text/csv", true],
    ]);
    parsed.sort((a, b) => a.line - b.line);
    expect(parsed.filter((p) => p.error)).toEqual([]);
    expect(parsed.map((p) => p.line)).toEqual(Array.from({ length: 2500 }, (_, k) => k + 1));
    expect(parsed.map((p) => p.battle?.tstamp)).toEqual(Array.from({ length: 2500 }, (_, k) => k + 1));
    expect(parsed[1733].battle).toMatchObject({
      modelA: "csv-4",
      winner: "model_a",
      questionId: "1734",
      conversationA: [
        { role: "user", content: "Question 1734, please" },
        { role: "assistant", content: 'Yes,\n"1734"' },
        { role: "user", content: "and again" },
        { role: "assistant", content: "no" },
      ],
    });
    expect(stdout).toMatch(/accepted {2}2,500\n {2}rejected {2}0\n/);
  });

  it("refuses a CSV whose structure breaks before sending any of it, naming the line", async () => {
    const file = path.join(dir, "broken.csv");
    const header = "id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie";
    const good = `1,a,b,"[""q""]","[""a""]","[""b""]",1,0,0`;
    await writeFile(file, `${header}\n${good}\n${good}\n2,a,b,"[""q""]"x,"[""a""]","[""b""]",1,0,0\n`);
    const { code, stderr } = await runCli([file, "--url", url]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${file} is not well-formed CSV at line 4: text after a field's closing quote`);
    expect(stderr).toContain("Nothing was imported");
    expect(received).toEqual([]);
  });

  it("counts a chunk the server refuses whole (422, no line a battle) as rejected lines and goes on with the next", async () => {
    const file = path.join(dir, "bad-middle.jsonl");
    const bad = (i: number) => JSON.stringify({ ...battle(i), winner: "left" });
    await writeFile(
      file,
      `${[battle(1), battle(2), bad(3), bad(4), battle(5), battle(6)]
        .map((b) => (typeof b === "string" ? b : JSON.stringify(b)))
        .join("\n")}\n`,
    );
    const { code, stdout, stderr } = await runCli([file, "--url", url, "--chunk", "2"]);
    expect(code, stderr).toBe(0);
    expect(chunksByOffset().map((c) => c.offset)).toEqual([0, 2, 4]);
    expect(stdout).toMatch(/accepted {2}4\n {2}rejected {2}2\n/);
    expect(stdout).toContain("item 3: winner must be one of");
  });

  it("exits non-zero when nothing was accepted", async () => {
    const file = path.join(dir, "bad.jsonl");
    await writeFile(file, '{"model_a":"a","model_b":"a","winner":"tie","tstamp":1}\n');
    const { code, stdout, stderr } = await runCli([file, "--url", url]);
    expect(code).toBe(1);
    expect(stdout).toContain('item 1: model_a and model_b must differ; both are "a"');
    expect(stderr).toContain("Nothing was accepted.");
  });

  it("prints its usage with --help and refuses a bad --chunk", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run import -- FILE \[options\]\n/);
    const bad = await runCli([jsonl, "--chunk", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^--chunk must be a whole number of at least 1; got "0"\n/);
    expect(received).toEqual([]);
  });
});
