import { describe, expect, it } from "vitest";
import { CsvSplitter, CsvSyntaxError, type CsvRecord, csvRecordText } from "../../worker/battles/csv-stream";

/** Every record of `text` fed in the given pieces. */
function split(pieces: string[]): CsvRecord[] {
  const splitter = new CsvSplitter();
  return [...pieces.flatMap((p) => splitter.push(p)), ...splitter.end()];
}

/** Every way of cutting `text` in two, and one character at a time. */
function everyCut(text: string): string[][] {
  const cuts = Array.from({ length: text.length + 1 }, (_, k) => [text.slice(0, k), text.slice(k)]);
  return [...cuts, [...text]];
}

const TRICKY =
  '\ufeffid,name,note\r\n1,"a, b","say ""hi"""\r\n2,"two\r\nlines",plain\r\n\r\n3,"",last\n4,"lone\rcr","x"';

const EXPECTED: CsvRecord[] = [
  { line: 1, fields: ["id", "name", "note"] },
  { line: 2, fields: ["1", "a, b", 'say "hi"'] },
  { line: 3, fields: ["2", "two\r\nlines", "plain"] },
  { line: 6, fields: ["3", "", "last"] },
  { line: 7, fields: ["4", "lone\rcr", "x"] },
];

describe("the CSV record splitter", () => {
  it("reads quoted commas, doubled quotes, line breaks inside fields, CRLF, a lone CR and skips blank lines", () => {
    expect(split([TRICKY])).toEqual(EXPECTED);
  });

  it("gives the same records however the text is cut into chunks, inside quotes and between CR and LF included", () => {
    for (const pieces of everyCut(TRICKY)) expect(split(pieces)).toEqual(EXPECTED);
  });

  it("keeps empty fields, a trailing empty field and a last record without a line end", () => {
    expect(split(["a,,\n,b,\r\nc"])).toEqual([
      { line: 1, fields: ["a", "", ""] },
      { line: 2, fields: ["", "b", ""] },
      { line: 3, fields: ["c"] },
    ]);
  });

  it("refuses text that is not CSV, naming the line, however it is cut", () => {
    const cases: [string, number, RegExp][] = [
      ['a,b\n1,"open\n2,3\n', 2, /ends inside a quoted field/],
      ['a,b\n1,"closed"x,2\n', 2, /text after a field's closing quote/],
      ['a,b\n\n1,x"y\n', 3, /a quote inside a field that does not start with one/],
    ];
    for (const [text, line, message] of cases)
      for (const pieces of everyCut(text)) {
        let error: unknown = null;
        try {
          split(pieces);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(CsvSyntaxError);
        expect((error as CsvSyntaxError).line).toBe(line);
        expect((error as CsvSyntaxError).message).toMatch(message);
      }
  });

  it("writes a record back as one CSV record that splits into the same fields", () => {
    const fields = ["plain", "", 'a "quote"', "comma, here", "two\r\nlines", "lone\rcr", '"'];
    const text = csvRecordText(fields);
    expect(text).toBe('plain,,"a ""quote""","comma, here","two\r\nlines","lone\rcr",""""');
    expect(split([`${text}\n${text}`])).toEqual([
      { line: 1, fields },
      { line: 4, fields },
    ]);
  });

  it("refuses a record longer than its limit instead of holding it", () => {
    const splitter = new CsvSplitter(10);
    expect(() => splitter.push('a,"0123456789ab"\n')).toThrow(/longer than 10 characters/);
  });
});
