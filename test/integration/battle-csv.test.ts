/**
 * lmarena's Kaggle-style CSV (issue 26 item 7): `lmsys-arena-human-preference-55k`'s columns imported as battles
 * in file order, their prompt and responses kept as conversations, read back through the export and the leaderboard.
 */
import { describe, expect, it } from "vitest";
import { errorOf } from "../helpers/arena";
import { api } from "../helpers/runs";

const HEADER = "id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie";

/**
 * Written by hand as pandas writes the dataset: quoted fields with doubled quotes, commas inside them, a line
 * break inside a field (between the JSON array's items), CRLF line ends, a null reply, a tie, and a row that
 * sets both winners.
 */
const CSV = [
  HEADER,
  `101,csv-gpt,csv-claude,"[""What is 2+2?""]","[""4""]","[""Four, I think.""]",1,0,0`,
  `102,csv-claude,csv-llama,"[""Write a poem, please"",` +
    "\r\n" +
    String.raw`""Shorter""]","[""Roses are red,\nviolets are \""blue\"""",""Red.""]","[""A poem"",null]",0,1,0`,
  String.raw`103,csv-gpt,csv-llama,"[""Say \""hi\""""]","[""hi""]","[""hello""]",0,0,1`,
  `104,csv-gpt,csv-claude,"[""x""]","[""a""]","[""b""]",1,1,0`,
  `105,csv-llama,csv-gpt,"[""Tell me, briefly""]","[""Sure, here: ok""]","[""No""]",0,1,0`,
].join("\r\n");

interface Exported {
  model_a: string;
  model_b: string;
  winner: string;
  tstamp: number;
  question_id?: string;
  turn?: number;
  conversation_a?: { role: string; content: string }[];
  conversation_b?: { role: string; content: string }[];
}

function importLog(body: string, query: string, contentType?: string) {
  return api(`/battles/import?${query}`, {
    method: "POST",
    body,
    headers: contentType ? { "content-type": contentType } : {},
  });
}

async function exported(prefix: string): Promise<Exported[]> {
  const res = await api("/battles/export?source=import");
  expect(res.status).toBe(200);
  return new TextDecoder()
    .decode(await res.arrayBuffer())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Exported)
    .filter((b) => b.model_a.startsWith(prefix));
}

const user = (content: string) => ({ role: "user", content });
const assistant = (content: string) => ({ role: "assistant", content });

describe("lmarena's Kaggle-style CSV", () => {
  it("imports each row as a battle in file order, keeps the conversations, and reports the row that sets two winners", async () => {
    const res = await importLog(CSV, "importId=kaggle", "text/csv");
    expect(res.status).toBe(200);
    const report = (await res.json()) as { accepted: number; inserted: number; rejected: number; errors: unknown[] };
    expect(report).toMatchObject({ accepted: 4, inserted: 4, rejected: 1 });
    expect(report.errors).toEqual([
      {
        line: 4,
        message:
          'exactly one of winner_model_a, winner_model_b and winner_tie must be 1 and the others 0; got "1", "1", "0"',
      },
    ]);

    const battles = await exported("csv-");
    expect(battles.map((b) => [b.model_a, b.model_b, b.winner, b.tstamp, b.question_id, b.turn])).toEqual([
      ["csv-gpt", "csv-claude", "model_a", 1, "101", 1],
      ["csv-claude", "csv-llama", "model_b", 2, "102", 2],
      ["csv-gpt", "csv-llama", "tie", 3, "103", 1],
      ["csv-llama", "csv-gpt", "model_b", 5, "105", 1],
    ]);
    expect(battles[0].conversation_b).toEqual([user("What is 2+2?"), assistant("Four, I think.")]);
    expect(battles[1].conversation_a).toEqual([
      user("Write a poem, please"),
      assistant('Roses are red,\nviolets are "blue"'),
      user("Shorter"),
      assistant("Red."),
    ]);
    // a null reply (the dataset's missing answer) is kept as empty text
    expect(battles[1].conversation_b).toEqual([
      user("Write a poem, please"),
      assistant("A poem"),
      user("Shorter"),
      assistant(""),
    ]);
    expect(battles[2].conversation_a).toEqual([user('Say "hi"'), assistant("hi")]);
    expect(battles[3].conversation_a).toEqual([user("Tell me, briefly"), assistant("Sure, here: ok")]);

    const board = (await (await api("/leaderboard?source=import")).json()) as {
      rows: { modelId: string; wins: number; battles: number; bt: number | null }[];
    };
    const row = (id: string) => board.rows.find((r) => r.modelId === id)!;
    // seed 000's counts: a tie is a win for both
    expect([row("csv-gpt").wins, row("csv-gpt").battles]).toEqual([3, 3]);
    expect([row("csv-claude").wins, row("csv-claude").battles]).toEqual([0, 2]);
    expect([row("csv-llama").wins, row("csv-llama").battles]).toEqual([2, 3]);
    expect(row("csv-gpt").bt).toBeGreaterThan(row("csv-claude").bt!);

    // sent again under the same import id, nothing is written twice
    const again = await importLog(CSV, "importId=kaggle", "text/csv");
    expect(await again.json()).toMatchObject({ accepted: 4, inserted: 0, alreadyImported: 4 });
  });

  it("knows the CSV by its header line whatever the content type, and numbers a chunk's rows after its offset", async () => {
    const body = `\ufeff${HEADER}\n7,sniff-a,sniff-b,"[""q""]","[""a""]","[""b""]",0,0,1\n8,sniff-b,sniff-a,"[""q""]","[""a""]","[""b""]",1,0,0\n`;
    const res = await importLog(body, "importId=sniffed&offset=40", "application/octet-stream");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: 2, rejected: 0 });
    const battles = await exported("sniff-");
    expect(battles.map((b) => [b.winner, b.tstamp])).toEqual([
      ["tie", 41],
      ["model_a", 42],
    ]);
  });

  it("refuses broken CSV with a 400 naming the line, and imports none of its rows", async () => {
    const good = `1,broken-a,broken-b,"[""q""]","[""a""]","[""b""]",1,0,0`;
    const cases: [string, string, RegExp][] = [
      [
        `${HEADER}\n${good}\n2,broken-a,broken-b,"[""q""]","[""a""],"[""b""]",0,1,0\n`,
        "3",
        /text after a field's closing quote/,
      ],
      [`${HEADER}\n${good}\n2,broken-a,broken-b,"[""q""]\n`, "3", /ends inside a quoted field/],
      [`${HEADER}\n${good}\n2,broken-a,broken-b,x,y\n`, "3", /the row has 5 fields where the header has 9/],
      [
        `id,model_a,model_b,prompt,winner_model_a\n${good}\n`,
        "1",
        /header lacks response_a, response_b, winner_model_b, winner_tie/,
      ],
    ];
    for (const [body, line, message] of cases) {
      const res = await importLog(body, "importId=broken", "text/csv");
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("malformed_csv");
      expect(error.message).toContain(`line ${line} of the body`);
      expect(error.message).toMatch(message);
      expect(error.message).toContain("Nothing was imported");
    }
    expect(await exported("broken-")).toEqual([]);
  });

  it("answers a CSV none of whose rows is a battle with the JSON import's 422, the rows' errors in its details", async () => {
    const body = `${HEADER}\n1,same,same,"[""q""]","[""a""]","[""b""]",1,0,0\n2,x-a,x-b,"not json","[""a""]","[""b""]",1,0,0\n3,x-a,x-b,"[""q""]","[""a"",""b""]","[""b""]",1,0,0\n`;
    const res = await importLog(body, "importId=none", "text/csv");
    expect(res.status).toBe(422);
    const error = (await res.json()) as {
      error: { code: string; details: { errors: { line: number; message: string }[] } };
    };
    expect(error.error.code).toBe("nothing_imported");
    expect(error.error.details.errors).toEqual([
      { line: 1, message: 'model_a and model_b must differ; both are "same"' },
      { line: 2, message: 'prompt must be a JSON array of strings, one per turn; got "not json"' },
      { line: 3, message: "prompt, response_a and response_b must hold as many turns each; got 1, 2 and 1" },
    ]);
  });

  it("keeps a JSON battle's conversation_a and conversation_b the same way, and gives them back", async () => {
    const battle = {
      model_a: "conv-a",
      model_b: "conv-b",
      winner: "model_a",
      tstamp: 1_700_000_000,
      conversation_a: [user("hi"), assistant("hello")],
      conversation_b: [user("hi"), assistant("hey")],
    };
    const res = await importLog(JSON.stringify(battle), "importId=conv", "application/x-ndjson");
    expect(res.status).toBe(200);
    expect(await exported("conv-")).toEqual([{ ...battle, source: "import" }]);
  });
});
