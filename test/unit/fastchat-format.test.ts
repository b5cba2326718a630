import { describe, expect, it } from "vitest";
import { parseBattle, toCleanBattle, type ImportedBattle } from "../../worker/battles/fastchat";
import { BattleSplitter, parseItem, type SplitItem } from "../../worker/battles/json-stream";

/** A row as Arena publishes it in clean_battle_*.json, including fields the importer ignores. */
const arenaRow = {
  question_id: "58210e39b3fd4441a2bd4a518bb44c2d",
  model_a: "chatglm-6b",
  model_b: "koala-13b",
  winner: "model_b",
  judge: "arena_user_973",
  conversation_a: [
    { role: "user", content: "What is the difference between OpenCL and CUDA?" },
    { role: "assistant", content: "OpenCL is an open standard; CUDA is NVIDIA's own." },
  ],
  conversation_b: [
    { role: "user", content: "What is the difference between OpenCL and CUDA?" },
    { role: "assistant", content: "Both program GPUs.", extra: "dropped" },
  ],
  turn: 1,
  anony: true,
  language: "English",
  tstamp: 1682351591.1322,
  conv_metadata: {
    sum_assistant_a_tokens: 312,
    header_count_a: { h1: 0, h2: 1, h3: 0, h4: 0, h5: 0, h6: 0 },
    list_count_a: { ordered: 3, unordered: 0 },
    bold_count_a: { "**": 2, __: 0 },
  },
  category: "coding",
  dedup_tag: { high_freq: false, sampled: true },
  openai_moderation: { flagged: false },
};

const parsedArenaRow: ImportedBattle = {
  modelA: "chatglm-6b",
  modelB: "koala-13b",
  winner: "model_b",
  tstamp: 1682351591.1322,
  questionId: "58210e39b3fd4441a2bd4a518bb44c2d",
  turn: 1,
  anony: true,
  language: "English",
  judge: "arena_user_973",
  category: "coding",
  convMetadata: arenaRow.conv_metadata,
  conversationA: arenaRow.conversation_a,
  conversationB: [
    { role: "user", content: "What is the difference between OpenCL and CUDA?" },
    { role: "assistant", content: "Both program GPUs." },
  ],
};

const minimal = { model_a: "gpt-4", model_b: "claude-3", winner: "tie", tstamp: 0 };

function errorOf(value: unknown): string {
  const result = parseBattle(value);
  if (result.ok) throw new Error("expected the battle to be rejected");
  return result.error;
}

describe("parseBattle", () => {
  it("reads an Arena row, keeping the fields it knows and its conversations, and ignoring the tags it has no use for", () => {
    expect(parseBattle(arenaRow)).toEqual({ ok: true, battle: parsedArenaRow });
  });

  it("reads lmarena's category tags and is_code as the labels the log gives", () => {
    const tagged = {
      ...minimal,
      is_code: true,
      conversation_a: [
        { role: "user", content: "Prove it" },
        { role: "assistant", content: "ok" },
        { role: "user", content: "again" },
      ],
      category_tag: {
        "math_v0.1": { math: true },
        "creative_writing_v0.1": { creative_writing: false, score: "no" },
        "if_v0.1": { if: true, score: 4 },
        "criteria_v0.1": {
          specificity: true,
          domain_knowledge: true,
          complexity: true,
          problem_solving: true,
          creativity: false,
          technical_accuracy: true,
          real_world: true,
        },
      },
    };
    const result = parseBattle(tagged);
    expect(result.ok && result.battle.tags).toEqual(["coding", "math", "instruction_following", "hard_prompt"]);
    const fiveOfSeven = { ...tagged, is_code: false, category_tag: { "criteria_v0.1": { specificity: true } } };
    const five = parseBattle(fiveOfSeven);
    expect(five.ok && five.battle.tags).toBeUndefined();
  });

  it("fills absent and null optional fields with null", () => {
    const expected = {
      modelA: "gpt-4",
      modelB: "claude-3",
      winner: "tie",
      tstamp: 0,
      questionId: null,
      turn: null,
      anony: null,
      language: null,
      judge: null,
      category: null,
      convMetadata: null,
      conversationA: null,
      conversationB: null,
    };
    expect(parseBattle(minimal)).toEqual({ ok: true, battle: expected });
    expect(parseBattle({ ...minimal, turn: null, anony: null, language: null, conv_metadata: null })).toEqual({
      ok: true,
      battle: expected,
    });
  });

  it("accepts every one of Arena's four outcomes", () => {
    for (const winner of ["model_a", "model_b", "tie", "tie (bothbad)"]) {
      const result = parseBattle({ ...minimal, winner });
      expect(result.ok && result.battle.winner).toBe(winner);
    }
  });

  it("reads lmarena's newer spelling both_bad as both-bad, and writes either spelling back", () => {
    const result = parseBattle({ ...minimal, winner: "both_bad" });
    expect(result.ok && result.battle.winner).toBe("tie (bothbad)");
    if (!result.ok) return;
    expect(toCleanBattle(result.battle).winner).toBe("tie (bothbad)");
    expect(toCleanBattle(result.battle, "lmarena").winner).toBe("both_bad");
    // The other outcomes are spelled alike in both.
    const tie = parseBattle({ ...minimal, winner: "tie" });
    expect(tie.ok && toCleanBattle(tie.battle, "lmarena").winner).toBe("tie");
  });

  it.each([
    [
      "a winner outside the four outcomes",
      { ...minimal, winner: "left" },
      'winner must be one of model_a, model_b, tie, tie (bothbad) (or both_bad); got "left"',
    ],
    [
      "no winner",
      { model_a: "a", model_b: "b", tstamp: 1 },
      "winner must be one of model_a, model_b, tie, tie (bothbad) (or both_bad); got nothing",
    ],
    ["no model_a", { model_b: "b", winner: "tie", tstamp: 1 }, "model_a is missing"],
    ["a number for model_b", { ...minimal, model_b: 42 }, "model_b must be a non-empty string; got 42"],
    ["a blank model name", { ...minimal, model_a: "   " }, 'model_a must be a non-empty string; got "   "'],
    [
      "a model name with a leading space",
      { ...minimal, model_a: " gpt-4" },
      'model_a must not start or end with whitespace; got " gpt-4"',
    ],
    [
      "a 201-character model name",
      { ...minimal, model_b: "m".repeat(201) },
      "model_b must be at most 200 characters; got 201",
    ],
    [
      "the same model on both sides",
      { ...minimal, model_b: "gpt-4" },
      'model_a and model_b must differ; both are "gpt-4"',
    ],
    ["no tstamp", { model_a: "a", model_b: "b", winner: "tie" }, "tstamp is missing"],
    [
      "a tstamp given as a string",
      { ...minimal, tstamp: "1700000000" },
      'tstamp must be a number of seconds since 1970, at least 0; got "1700000000"',
    ],
    [
      "a negative tstamp",
      { ...minimal, tstamp: -1 },
      "tstamp must be a number of seconds since 1970, at least 0; got -1",
    ],
    [
      "an infinite tstamp",
      { ...minimal, tstamp: Infinity },
      "tstamp must be a number of seconds since 1970, at least 0; got Infinity",
    ],
    ["a fractional turn", { ...minimal, turn: 1.5 }, "turn must be a non-negative integer; got 1.5"],
    ["a negative turn", { ...minimal, turn: -1 }, "turn must be a non-negative integer; got -1"],
    ["anony as a word", { ...minimal, anony: "yes" }, 'anony must be true or false; got "yes"'],
    ["a numeric language", { ...minimal, language: 7 }, "language must be a string; got 7"],
    [
      "a 201-character category",
      { ...minimal, category: "c".repeat(201) },
      "category must be at most 200 characters; got 201",
    ],
    [
      "a 201-character question_id",
      { ...minimal, question_id: "q".repeat(201) },
      "question_id must be at most 200 characters; got 201",
    ],
    ["a judge given as an object", { ...minimal, judge: { id: 1 } }, "judge must be a string; got an object"],
    ["conv_metadata as an array", { ...minimal, conv_metadata: [1] }, "conv_metadata must be an object; got an array"],
    [
      "conv_metadata holding NaN",
      { ...minimal, conv_metadata: { x: NaN } },
      "conv_metadata.x must be a finite number; got NaN",
    ],
    [
      "conv_metadata holding a Date",
      { ...minimal, conv_metadata: { when: new Date(0) } },
      "conv_metadata.when must be plain JSON data; got a Date",
    ],
    [
      "conv_metadata with a constructor key",
      { ...minimal, conv_metadata: { a: [{ constructor: 1 }] } },
      'conv_metadata.a[0] must not contain the key "constructor"',
    ],
    ["an array instead of a battle", [minimal], "a battle must be a JSON object; got an array"],
    ["null instead of a battle", null, "a battle must be a JSON object; got null"],
    ["a long string instead of a battle", "x".repeat(100), `a battle must be a JSON object; got "${"x".repeat(60)}…"`],
  ])("rejects %s with a message that says what to fix", (_, value, message) => {
    expect(errorOf(value)).toBe(message);
  });

  it("rejects __proto__ keys from JSON without touching any prototype", () => {
    const nested = JSON.parse(
      '{"model_a":"a","model_b":"b","winner":"tie","tstamp":1,"conv_metadata":{"header_count_a":{"__proto__":{"polluted":1}}}}',
    );
    expect(errorOf(nested)).toBe('conv_metadata.header_count_a must not contain the key "__proto__"');
    const top = JSON.parse('{"model_a":"a","model_b":"b","winner":"tie","tstamp":1,"__proto__":{"polluted":1}}');
    expect(errorOf(top)).toBe('a battle must not contain the key "__proto__"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("takes conv_metadata up to 4096 bytes of JSON, counting UTF-8 bytes, and rejects one byte more", () => {
    // {"pad":"…"} is 10 bytes around the padding.
    expect(parseBattle({ ...minimal, conv_metadata: { pad: "x".repeat(4086) } }).ok).toBe(true);
    expect(errorOf({ ...minimal, conv_metadata: { pad: "x".repeat(4087) } })).toBe(
      "conv_metadata must be at most 4096 bytes as JSON; got 4097",
    );
    expect(errorOf({ ...minimal, conv_metadata: { pad: "é".repeat(2044) } })).toBe(
      "conv_metadata must be at most 4096 bytes as JSON; got 4098",
    );
  });
});

describe("toCleanBattle", () => {
  it("writes Arena's snake_case keys and leaves out what is null", () => {
    const battle = parseBattle(minimal);
    if (!battle.ok) throw new Error(battle.error);
    expect(toCleanBattle(battle.battle)).toEqual({ model_a: "gpt-4", model_b: "claude-3", winner: "tie", tstamp: 0 });
    expect(toCleanBattle({ ...battle.battle, source: "judge" })).toEqual({
      model_a: "gpt-4",
      model_b: "claude-3",
      winner: "tie",
      tstamp: 0,
      source: "judge",
    });
  });

  it("refuses a conversation that is not FastChat's list of { role, content }, or too large to store", () => {
    expect(errorOf({ ...minimal, conversation_a: "hello" })).toBe(
      'conversation_a must be an array of { role, content }; got "hello"',
    );
    expect(errorOf({ ...minimal, conversation_b: [{ role: "user" }] })).toBe(
      "conversation_b[0].content must be a string; got nothing",
    );
    expect(errorOf({ ...minimal, conversation_a: [{ role: "", content: "x" }] })).toMatch(/role must be a string/);
    const long = [{ role: "user", content: "é".repeat(600_000) }];
    expect(errorOf({ ...minimal, conversation_a: long })).toMatch(
      /at most 1000000 bytes together as JSON; got 12000\d\d/,
    );
  });

  it("round-trips a full battle through JSON unchanged", () => {
    const clean = toCleanBattle(parsedArenaRow);
    const { dedup_tag: _d, openai_moderation: _o, ...known } = arenaRow;
    expect(clean).toEqual({ ...known, conversation_b: parsedArenaRow.conversationB });
    expect(parseBattle(JSON.parse(JSON.stringify(clean)))).toEqual({ ok: true, battle: parsedArenaRow });
  });
});

/** Splits `text` at the given offsets, pushes the pieces in order and ends the stream. */
function splitAt(text: string, cuts: number[], max?: number): SplitItem[] {
  const splitter = new BattleSplitter(max);
  const items: SplitItem[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    items.push(...splitter.push(text.slice(from, cut)));
    from = cut;
  }
  return [...items, ...splitter.end()];
}

/** The same items whatever the chunking: whole, cut once at every position, and one character at a time. */
function expectSplit(text: string, expected: SplitItem[], max?: number): void {
  expect(splitAt(text, [], max)).toEqual(expected);
  for (let cut = 0; cut <= text.length; cut++) expect(splitAt(text, [cut], max), `cut at ${cut}`).toEqual(expected);
  expect(
    splitAt(
      text,
      Array.from(text, (_, i) => i),
      max,
    ),
  ).toEqual(expected);
}

const tricky = {
  model_a: "a[0]",
  model_b: 'b "quoted" {x}',
  winner: "tie",
  tstamp: 1,
  language: "line\nbreak \\ back,slash ]",
  conv_metadata: { header_count_a: { h1: 1 }, list: [[1, 2], { k: "}" }] },
};

describe("BattleSplitter on JSON Lines", () => {
  it("gives one item per non-blank line, numbered by item, with CRLF and blank lines skipped", () => {
    const lines = [JSON.stringify(minimal), JSON.stringify(tricky), '{"model_a":"x"}'];
    const text = `\r\n${lines[0]}\r\n\r\n  \n${lines[1]}\n${lines[2]}`;
    expectSplit(text, [
      { line: 1, text: lines[0] },
      { line: 2, text: lines[1] },
      { line: 3, text: lines[2] },
    ]);
  });

  it("skips a byte-order mark and reports an over-long line without losing the next one", () => {
    expectSplit(
      `\uFEFF{"a":1}\n${"x".repeat(30)}\n{"b":2}\n`,
      [
        { line: 1, text: '{"a":1}' },
        { line: 2, text: "", error: "the item is longer than 20 characters" },
        { line: 3, text: '{"b":2}' },
      ],
      20,
    );
  });

  it("gives nothing for an empty or blank file", () => {
    expectSplit("", []);
    expectSplit(" \r\n\n\t\n", []);
  });
});

describe("BattleSplitter on a JSON array", () => {
  it("gives each element, pretty-printed or not, with brackets, braces, quotes and commas inside strings", () => {
    const text = `  [\n${JSON.stringify(tricky, null, 2)},\r\n${JSON.stringify(minimal)} , 7 ,\n"s]"\n]\n`;
    const items = splitAt(text, []);
    expect(items.map((i) => i.line)).toEqual([1, 2, 3, 4]);
    expect(items.map((i) => JSON.parse(i.text))).toEqual([tricky, minimal, 7, "s]"]);
    expectSplit(text, items);
  });

  it("puts a pretty-printed element on one line, folding whitespace between tokens but never inside strings", () => {
    expectSplit('[\n  {\n    "a": "x  y\\n",\r\n\t"b": [1,\n      2]\n  } ,\n  true\n]', [
      { line: 1, text: '{ "a": "x  y\\n", "b": [1, 2] }' },
      { line: 2, text: "true" },
    ]);
  });

  it("tracks backslash escapes at the end of strings wherever the chunks are cut", () => {
    const values = ["ends in \\", '\\"', '\\\\"]', "\\\\", "\u005d,"];
    const text = `[${values.map((v) => JSON.stringify({ v })).join(",")}]`;
    expectSplit(
      text,
      values.map((v, k) => ({ line: k + 1, text: JSON.stringify({ v }) })),
    );
  });

  it("reports text after the closing bracket as one more item and ignores the rest", () => {
    expectSplit('[{"a":1}] \n xyz [1]', [
      { line: 1, text: '{"a":1}' },
      { line: 2, text: "xyz [1]", error: 'unexpected text after the closing ] of the array: "xyz [1]"' },
    ]);
  });

  it("reports an array the file never closes, keeping the elements that are complete", () => {
    expectSplit('[{"a":1},\n{"b":[2]}', [
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '{"b":[2]}' },
      { line: 3, text: "", error: "the array is never closed: the file ends without ]" },
    ]);
    expectSplit('[{"a":1},{"b":"]', [
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '{"b":"]', error: "the file ends inside this item: the array is never closed with ]" },
    ]);
  });

  it("reports empty elements and a trailing comma, and leaves a stray brace for JSON.parse to reject", () => {
    expectSplit("[1,,2,]", [
      { line: 1, text: "1" },
      { line: 2, text: "", error: "the item is empty: two commas in a row, or a comma right after [" },
      { line: 3, text: "2" },
      { line: 4, text: "", error: "a comma right before the closing ] (trailing commas are not JSON)" },
    ]);
    expectSplit('[{"a":1}}, {"b":2}]', [
      { line: 1, text: '{"a":1}}' },
      { line: 2, text: '{"b":2}' },
    ]);
  });

  it("gives nothing for an empty array and reports an over-long element", () => {
    expectSplit(" [ ] ", []);
    expectSplit(
      `[{"a":"${"x".repeat(30)}"},{"b":2}]`,
      [
        { line: 1, text: "", error: "the item is longer than 20 characters" },
        { line: 2, text: '{"b":2}' },
      ],
      20,
    );
  });
});

describe("parseItem", () => {
  it("parses a good item, and says why a bad one was rejected with its number", () => {
    expect(parseItem({ line: 4, text: JSON.stringify(arenaRow) })).toEqual({ line: 4, battle: parsedArenaRow });
    expect(parseItem({ line: 5, text: JSON.stringify({ ...minimal, winner: "left" }) })).toEqual({
      line: 5,
      error: 'winner must be one of model_a, model_b, tie, tie (bothbad) (or both_bad); got "left"',
    });
    expect(parseItem({ line: 6, text: "", error: "the item is empty" })).toEqual({
      line: 6,
      error: "the item is empty",
    });
    const broken = parseItem({ line: 7, text: '{"model_a": }' });
    expect(broken.line).toBe(7);
    expect(broken.error).toMatch(/^not valid JSON: .+/);
  });
});
