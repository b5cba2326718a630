import { describe, expect, it } from "vitest";
import type { ParsedItem } from "../../worker/battles/json-stream";
import { battleLogReader } from "../../worker/battles/log-reader";

const CSV =
  "id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie\r\n" +
  '1,m-a,m-b,"[""one, two""]","[""a\\nb""]","[null]",0,0,1\r\n' +
  '2,m-b,m-a,"[""q""]","[""x""]","[""y""]",2,0,0\r\n';

function readAll(pieces: string[], contentType?: string): ParsedItem[] {
  const reader = battleLogReader(contentType, 10);
  return [...pieces.flatMap((p) => reader.push(p)), ...reader.end()];
}

describe("reading a battle log of either kind", () => {
  it("tells the CSV by its header, whatever the chunks, and reads its rows after the offset", () => {
    const whole = readAll([CSV]);
    expect(whole).toEqual([
      {
        line: 1,
        battle: expect.objectContaining({
          modelA: "m-a",
          winner: "tie",
          tstamp: 11,
          questionId: "1",
          conversationB: [
            { role: "user", content: "one, two" },
            { role: "assistant", content: "" },
          ],
        }),
      },
      {
        line: 2,
        error:
          'exactly one of winner_model_a, winner_model_b and winner_tie must be 1 and the others 0; got "2", "0", "0"',
      },
    ]);
    for (let cut = 0; cut <= CSV.length; cut++) expect(readAll([CSV.slice(0, cut), CSV.slice(cut)])).toEqual(whole);
    expect(readAll([...CSV])).toEqual(whole);
    expect(readAll([CSV], "text/csv; charset=utf-8")).toEqual(whole);
  });

  it("reads JSON Lines and arrays as before, a first line naming winner_model_a inside JSON included", () => {
    const line = JSON.stringify({ model_a: "a", model_b: "b", winner: "tie", tstamp: 1, winner_model_a: 1 });
    for (const text of [line, `[${line}]`])
      for (let cut = 0; cut <= text.length; cut++)
        expect(readAll([text.slice(0, cut), text.slice(cut)])).toEqual([
          { line: 1, battle: expect.objectContaining({ modelA: "a", winner: "tie" }) },
        ]);
  });
});
