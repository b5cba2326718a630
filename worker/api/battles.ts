/**
 * /api/battles: battle logs in (Chatbot Arena's clean battles as a JSON array or JSON Lines, or lmarena's
 * Kaggle-style CSV) and out (clean battles, JSON Lines).
 */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { archivePass } from "../arena/archive-policy";
import { toCleanBattle, type WinnerSpelling } from "../battles/fastchat";
import { CsvSyntaxError } from "../battles/csv-stream";
import { battleLogReader } from "../battles/log-reader";
import { archivedImportLines, archiveSummary } from "../db/archive";
import { writePrompts } from "../db/label-queries";
import { importedPromptRows } from "../labels/prompt-rows";
import { type ExportedRow, exportedBattles, insertImportedBattles, type NumberedBattle } from "../db/battle-queries";
import { openDb } from "../db/queries";
import type { BattleSource, ConversationMessage } from "../shared/arena";
import type { LeaderboardSource } from "../shared/constants";
import { settings } from "../shared/config";
import { exportBattlesQuery, importQuery } from "../shared/requests";
import {
  archivePassResponse,
  archiveStatus,
  cleanBattle,
  cleanBattles,
  importReport,
  kaggleCsv,
} from "../shared/responses";
import { discardRest } from "./body-cap";
import { ApiError } from "./errors";
import { errorResponses, jsonResponse, mediaContent, mediaResponse } from "./openapi-describe";
import { validate } from "./validate";

/** A request's body is read as it streams and refused once it passes this, before anything is written. */
const MAX_IMPORT_BYTES = 64 * 1024 * 1024;
const SHOWN_ERRORS = 20;

function tooLarge(what: string): ApiError {
  return new ApiError(
    413,
    "too_large",
    `${what} Send at most that in one request, or import a file of any size with \`npm run import -- FILE\`, which sends it in chunks.`,
  );
}

function nothingImported(report: { rejected: number; errors: { line: number; message: string }[] }): ApiError {
  const first = report.errors[0];
  const lines = report.rejected === 1 ? "The one line" : `All ${report.rejected.toLocaleString("en")} lines`;
  return new ApiError(
    422,
    "nothing_imported",
    `${lines} of this import ${report.rejected === 1 ? "is" : "are"} not a battle, so nothing was imported${first ? ` (line ${first.line}: ${first.message})` : ""}. Fix the lines listed in details.errors and send them again.`,
    report,
  );
}

/** CSV whose structure is broken: the rows after the fault can't be trusted to split right, so none is imported. */
function malformedCsv(error: CsvSyntaxError): ApiError {
  return new ApiError(
    400,
    "malformed_csv",
    `This CSV is malformed at line ${error.line} of the body: ${error.message.replace(/^line \d+: /, "")}. Nothing was imported; fix that line and send the file again.`,
    { line: error.line },
  );
}

const bodyTooLarge = () => tooLarge(`This request's body is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);

/**
 * Reads and parses the whole body (bounded), so a refused request has written nothing: clean battles (JSON) or
 * lmarena's Kaggle-style CSV, as `contentType` or the first line says.
 */
async function readBattles(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  offset: number,
  maxLines: number,
) {
  const log = battleLogReader(contentType, offset);
  const decoder = new TextDecoder();
  const accepted: NumberedBattle[] = [];
  const errors: { line: number; message: string }[] = [];
  let rejected = 0;
  let bytes = 0;
  const take = (items: ReturnType<typeof log.push>) => {
    for (const parsed of items) {
      if (accepted.length + rejected >= maxLines)
        throw tooLarge(
          `This request has more than ${maxLines.toLocaleString("en")} battle lines (QUORUM_IMPORT_MAX_LINES).`,
        );
      const line = offset + parsed.line;
      if (parsed.battle) accepted.push({ line, battle: parsed.battle });
      else {
        rejected++;
        if (errors.length < SHOWN_ERRORS) errors.push({ line, message: parsed.error ?? "not a battle" });
      }
    }
  };
  if (body) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > MAX_IMPORT_BYTES) throw bodyTooLarge();
        take(log.push(decoder.decode(value, { stream: true })));
      }
    } catch (err) {
      // Refused midway: the rest is read and dropped, so the client, still sending, gets the 413 rather than a reset.
      await discardRest(reader);
      throw err;
    }
  }
  take(log.push(decoder.decode()));
  take(log.end());
  return { accepted, rejected, errors };
}

const SOURCES: Record<LeaderboardSource, BattleSource[]> = {
  human: ["human"],
  judge: ["judge"],
  import: ["import"],
  eval: ["eval"],
  goal: ["goal"],
  all: ["human", "judge", "import", "eval", "goal"],
};

/** A stored battle as Arena's tools read it, its winner spelled as asked; `source` says where it came from. */
function cleanLine(r: ExportedRow, spelling: WinnerSpelling): string {
  return JSON.stringify(
    toCleanBattle(
      {
        modelA: r.modelA,
        modelB: r.modelB,
        winner: r.winner,
        tstamp: r.tstamp,
        questionId: r.questionId ?? r.comparisonId ?? r.runId,
        turn: r.turn,
        anony: r.anony === null ? null : r.anony === 1,
        language: r.language,
        judge: r.judge,
        category: r.category,
        convMetadata: r.convMetadata === null ? null : (JSON.parse(r.convMetadata) as Record<string, unknown>),
        conversationA: r.conversationA === null ? null : (JSON.parse(r.conversationA) as ConversationMessage[]),
        conversationB: r.conversationB === null ? null : (JSON.parse(r.conversationB) as ConversationMessage[]),
        source: r.source,
      },
      spelling,
    ),
  );
}

/** The routes below as the OpenAPI document (openapi.ts) describes them. */
const described = {
  import: describeRoute({
    tags: ["Arena"],
    summary: "Import Chatbot Arena clean battles (a JSON array or JSON Lines) or lmarena's Kaggle-style CSV",
    description: `At most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and QUORUM_IMPORT_MAX_LINES lines a request; \`npm run import -- FILE\` sends a larger file in chunks (importId and offset make a retried chunk write nothing twice). The CSV (Content-Type text/csv, or a first line naming winner_model_a) has no timestamps: row n after the header gets tstamp offset + n, so file order is time order; its prompt and responses are kept as conversation_a/conversation_b. A CSV whose structure is broken (an unclosed quote, a row with the wrong number of fields) is a 400 malformed_csv naming the line, with nothing imported.`,
    requestBody: {
      required: true,
      content: mediaContent({
        "application/json": cleanBattles,
        "application/x-ndjson": cleanBattle,
        "text/csv": kaggleCsv,
      }),
    },
    responses: { 200: jsonResponse(importReport, "What was imported."), ...errorResponses(400, 413, 422) },
  }),
  archiveStatus: describeRoute({
    tags: ["Arena"],
    summary: "What the archive (R2) holds, and after how many hours battles move there",
    responses: { 200: jsonResponse(archiveStatus, "The archive's figures.") },
  }),
  archiveNow: describeRoute({
    tags: ["Arena"],
    summary: "Run one archive pass now (a cron runs one every minute)",
    responses: { 200: jsonResponse(archivePassResponse, "What the pass moved."), ...errorResponses(409) },
  }),
  export: describeRoute({
    tags: ["Arena"],
    summary: "Export battles as Chatbot Arena clean battles, one JSON object a line",
    responses: {
      200: mediaResponse("The battles, as an attachment.", { "application/x-ndjson": cleanBattle }),
      ...errorResponses(400),
    },
  }),
};

export const battlesApi = new Hono<{ Bindings: Env }>()
  .post("/import", described.import, validate("query", importQuery), async (c) => {
    const { importId = crypto.randomUUID(), offset } = c.req.valid("query");
    // A body declared too large is refused unread.
    if (Number(c.req.header("Content-Length") ?? 0) > MAX_IMPORT_BYTES) throw bodyTooLarge();
    const { accepted, rejected, errors } = await readBattles(
      c.req.raw.body,
      c.req.header("Content-Type"),
      offset,
      settings(c.env).arena.importMaxLines,
    ).catch((error: unknown) => {
      if (error instanceof CsvSyntaxError) throw malformedCsv(error);
      throw error;
    });
    if (!accepted.length && !rejected)
      throw new ApiError(
        400,
        "empty_import",
        "The body holds no battles: send a JSON array or JSON Lines of Chatbot Arena clean battles, or lmarena's CSV with its header and at least one row.",
      );
    // Lines of this import the archive already holds are not in D1 to conflict with: they are left out here.
    const archived = await archivedImportLines(c.env.DB, importId);
    const kept = accepted.filter((a) => !archived(a.line));
    const db = openDb(c.env.DB);
    const inserted = await insertImportedBattles(db, importId, kept);
    // Rule and the log's own labels now; the classifier, when one is set, later in the label pass.
    const { prompts, labels } = importedPromptRows(
      importId,
      kept,
      settings(c.env).arena.classifier === null ? null : Date.now(),
    );
    await writePrompts(db, prompts, labels);
    const report = {
      importId,
      accepted: accepted.length,
      inserted,
      alreadyImported: accepted.length - inserted,
      rejected,
      errors,
    };
    // Nothing accepted is a failure `curl -f` and scripts must see; the report rides along as the details.
    if (!accepted.length) throw nothingImported(report);
    return c.json(report, 200);
  })
  .get("/archive", described.archiveStatus, async (c) => {
    const { archiveAfterHours } = settings(c.env).arena;
    return c.json({
      afterHours: archiveAfterHours || null,
      bucketBound: !!c.env.ARCHIVE,
      ...(await archiveSummary(c.env.DB)),
    });
  })
  // A cron runs a pass every minute; this runs one now.
  .post("/archive", described.archiveNow, async (c) => {
    if (!c.env.ARCHIVE)
      throw new ApiError(
        409,
        "archive_unbound",
        "No ARCHIVE bucket is bound: add the [[r2_buckets]] block of wrangler.toml back, then deploy again.",
      );
    const pass = await archivePass(c.env);
    if (!pass)
      throw new ApiError(
        409,
        "archive_off",
        "Archiving is off: set QUORUM_ARCHIVE_AFTER_HOURS to the hours after which battles become final and move to R2.",
      );
    return c.json({ pass, archive: await archiveSummary(c.env.DB) });
  })
  .get("/export", described.export, validate("query", exportBattlesQuery), async (c) => {
    const { source, includeFlagged, format } = c.req.valid("query");
    const pages = exportedBattles(openDb(c.env.DB), c.env.ARCHIVE, SOURCES[source], includeFlagged);
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      // Each pull enqueues or closes: a pull that did neither would not be called again.
      async pull(controller) {
        for (;;) {
          const { done, value: page } = await pages.next();
          if (done) return controller.close();
          if (page.length)
            return controller.enqueue(encoder.encode(`${page.map((row) => cleanLine(row, format)).join("\n")}\n`));
        }
      },
    });
    return c.body(stream, 200, {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="quorum-battles-${source}.jsonl"`,
    });
  });
