import type { Example } from "./types";

export const sqlDedup: Example = {
  id: "sql-dedup",
  title: "Deduplicate users in SQL",
  kind: "coding",
  question:
    "Write a PostgreSQL query that deletes duplicate rows from users(id, email, created_at), keeping only the newest row per email, compared case-insensitively.",
  ranking: ["thorough", "skeptic", "concise"],
  answers: {
    thorough: {
      text: `## The query

\`\`\`sql
DELETE FROM users AS u
USING (
  SELECT id,
         row_number() OVER (
           PARTITION BY lower(email)
           ORDER BY created_at DESC, id DESC
         ) AS rn
  FROM users
  WHERE email IS NOT NULL
) AS ranked
WHERE u.id = ranked.id
  AND ranked.rn > 1;
\`\`\`

## How it works

1. \`PARTITION BY lower(email)\` groups \`Ann@x.com\` and \`ann@x.com\` together.
2. \`ORDER BY created_at DESC, id DESC\` puts the newest row first; \`id\` breaks ties between equal timestamps, so exactly one row per email survives.
3. Every row numbered 2 or more is deleted.
4. \`WHERE email IS NOT NULL\` leaves rows without an email alone (a window would otherwise treat all NULLs as one group).

## Do it safely

- Run the inner \`SELECT\` first and count the rows with \`rn > 1\`.
- Wrap the \`DELETE\` in \`BEGIN; … COMMIT;\` so you can roll back.
- Then stop new duplicates: \`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));\``,
      strengths: [
        "The query is correct: case-insensitive grouping, newest row kept, ties broken by id.",
        "It handles NULL emails deliberately instead of by accident.",
        "It adds a unique index on lower(email) so the duplicates don't come back.",
      ],
      weaknesses: [],
      scores: { correctness: 10, completeness: 9, clarity: 9, helpfulness: 9, safety: 9, overall: 9.2 },
    },
    concise: {
      text: `\`\`\`sql
DELETE FROM users
WHERE id NOT IN (
  SELECT MAX(id) FROM users GROUP BY email
);
\`\`\`

This keeps one row per email (the latest) and deletes the rest.`,
      strengths: ["It is short and runs as written."],
      weaknesses: [
        "It keeps the highest id, not the newest created_at: the two differ whenever ids aren't in time order.",
        "GROUP BY email is case-sensitive, so Ann@x.com and ann@x.com both survive, which the question rules out.",
        "It claims to keep the latest row without saying it assumes ids grow with time.",
      ],
      scores: { correctness: 3, completeness: 3, clarity: 8, helpfulness: 3, safety: 6, overall: 3.9 },
    },
    skeptic: {
      text: `Back up the table (or work in a transaction) before deleting anything. Assuming "newest" means the latest \`created_at\`, with \`id\` breaking ties:

\`\`\`sql
DELETE FROM users AS a
WHERE EXISTS (
  SELECT 1
  FROM users AS b
  WHERE lower(b.email) = lower(a.email)
    AND (b.created_at, b.id) > (a.created_at, a.id)
);
\`\`\`

A row is deleted when a newer row with the same email exists. On a large table this is slow without an index on \`lower(email)\`, so create one first. Check the count with a \`SELECT\` of the same condition before you run it.`,
      strengths: [
        "The query is correct, including the case-insensitive match and the tie-break on id.",
        "It says what it assumes and how to check before deleting.",
      ],
      weaknesses: [
        "It doesn't suggest a unique index to keep new duplicates out.",
        "It explains less than it could about how the row comparison works.",
      ],
      scores: { correctness: 9, completeness: 7, clarity: 8, helpfulness: 8, safety: 10, overall: 8.1 },
    },
  },
  synthesis: `Number the rows of each email, newest first, and delete all but the first:

\`\`\`sql
BEGIN;

DELETE FROM users AS u
USING (
  SELECT id,
         row_number() OVER (
           PARTITION BY lower(email)
           ORDER BY created_at DESC, id DESC
         ) AS rn
  FROM users
  WHERE email IS NOT NULL
) AS ranked
WHERE u.id = ranked.id
  AND ranked.rn > 1;

COMMIT;
\`\`\`

- \`lower(email)\` makes the comparison case-insensitive, and \`id DESC\` breaks ties between equal timestamps, so exactly one row per email is kept.
- Rows without an email are left alone.
- Don't use \`MAX(id)\` as a shortcut: it keeps the highest id, which is the newest row only if ids follow time.

Preview first by running the inner \`SELECT\` and counting \`rn > 1\`. Afterwards, keep duplicates out for good:

\`\`\`sql
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
\`\`\``,
};
