/**
 * The soak's vote half: comparisons made ready with healthy stub sides, then 64 clients (each its own
 * X-Client-Id, which is who a voter is to worker/api/rate-limit.ts clientIdOf) cast distinct votes, every one
 * with its own Idempotency-Key, and re-send a share of them with the same key: half at the same moment as
 * the original, half later. Every answer is kept, so the rows in D1 can be checked vote by vote.
 */
import type { BenchStub } from "./stub";
import { pool, sleep } from "./stats";
import { d1Rows, type CountingHttp, type Random } from "./soak-http";

export const VOTE_MODELS = ["openai:soak-vote-a", "anthropic:soak-vote-b", "google:soak-vote-c"];
const CHOICES = ["left", "right", "tie", "both-bad"] as const;
type Choice = (typeof CHOICES)[number];
/** model_votes rows one vote writes (worker/shared/arena.ts winnersOf); each vote also writes one battle and one key */
export const MODEL_VOTE_ROWS: Record<Choice, number> = { left: 1, right: 1, tie: 2, "both-bad": 1 };

export interface VotesOptions {
  /** requests in all, replays included */
  requests: number;
  /** share of the requests that are replays */
  replayShare: number;
  clients: number;
  /** distinct votes a comparison gets: the default cap QUORUM_VOTES_PER_COMPARISON (20) */
  perComparison: number;
  seed: string;
}

interface PlannedVote {
  n: number;
  key: string;
  comparison: number;
  client: number;
  choice: Choice;
  replay: "none" | "concurrent" | "later";
}

interface Answer {
  role: "original" | "replay";
  status: number;
  replayed: boolean;
  voteId: string | null;
  code: string | null;
}

export interface VotesOutcome {
  comparisons: number;
  comparisonsReplaced: string[];
  sent: number;
  originals: number;
  replaysSent: number;
  /** distinct votes answered 201 without Idempotent-Replayed */
  accepted: number;
  /** 201 answers marked Idempotent-Replayed */
  replayed: number;
  /** non-201 answers, by status and code */
  refused: Map<string, number>;
  expectedModelVoteRows: number;
  stored: { modelVoteRows: number; modelVoteIds: number; battles: number; keys: number };
  lost: string[];
  duplicated: string[];
  /** a replay that answered with another vote than the one its key recorded, and similar */
  mismatched: string[];
  /** the plan against the default caps: most distinct votes one client casts on one comparison, and on one comparison in all */
  mostPerClientPerComparison: number;
  mostPerComparison: number;
  seconds: number;
  perSecond: number;
}

/** Creates `count` comparisons on fixed healthy models and waits until every one is ready to take votes. */
async function readyComparisons(http: CountingHttp, count: number, replaced: string[]): Promise<string[]> {
  return pool(count, 16, async (i) => {
    for (let attempt = 1; ; attempt++) {
      const models = [VOTE_MODELS[i % 3], VOTE_MODELS[(i + 1) % 3]];
      const created = await http.call<{ id: string }>("POST /api/comparisons", "POST", "/api/comparisons", {
        prompt: `Soak vote ${i} (${attempt})`,
        models,
      });
      let why = `POST /api/comparisons answered ${created.status}: ${JSON.stringify(created.body).slice(0, 200)}`;
      if (created.status === 201) {
        const id = created.body.id;
        const deadline = Date.now() + 180_000;
        let status = "";
        while (Date.now() < deadline) {
          const got = await http.call<{ comparison: { status: string } }>(
            "GET /api/comparisons/:id",
            "GET",
            `/api/comparisons/${id}`,
          );
          status = got.status === 200 ? got.body.comparison.status : `HTTP ${got.status}`;
          if (status === "ready" || status === "failed") break;
          await sleep(200);
        }
        if (status === "ready") return id;
        why = `comparison ${id} was ${status}, not ready`;
      }
      replaced.push(why);
      if (attempt >= 3) throw new Error(`could not get comparison ${i} ready: ${why}`);
    }
  });
}

function planVotes(random: Random, opts: VotesOptions, comparisons: number): PlannedVote[] {
  const replays = Math.round(opts.requests * opts.replayShare);
  const originals = opts.requests - replays;
  // Vote n goes to comparison n % C and client n % clients: with C ≡ 2 (mod 64) a comparison's 20 votes
  // come from 20 different clients, so no client passes the default 5 per comparison, nor any comparison 20.
  const votes: PlannedVote[] = Array.from({ length: originals }, (_, n) => ({
    n,
    key: `${opts.seed}-vote-${n}`,
    comparison: n % comparisons,
    client: n % opts.clients,
    choice: random.pick(CHOICES),
    replay: "none",
  }));
  const chosen = random.shuffle(votes.map((v) => v.n)).slice(0, replays);
  chosen.forEach((n, i) => {
    votes[n].replay = i % 2 === 0 ? "concurrent" : "later";
  });
  return votes;
}

export async function soakVotes(
  http: CountingHttp,
  stub: BenchStub,
  persistTo: string,
  random: Random,
  opts: VotesOptions,
  log: (s: string) => void,
): Promise<VotesOutcome> {
  for (const m of VOTE_MODELS)
    stub.setProfile(m.slice(m.indexOf(":") + 1), {
      answer: { delayMs: 20, text: "A short healthy answer, for votes." },
      review: {},
    });
  const replaysWanted = Math.round(opts.requests * opts.replayShare);
  const count = Math.ceil((opts.requests - replaysWanted) / opts.perComparison);
  const replaced: string[] = [];
  log(`creating ${count} comparisons and waiting until they are ready…`);
  const ids = await readyComparisons(http, count, replaced);
  const votes = planVotes(random, opts, ids.length);
  const tally = (key: (v: PlannedVote) => string) => {
    const counts = new Map<string, number>();
    for (const v of votes) counts.set(key(v), (counts.get(key(v)) ?? 0) + 1);
    return Math.max(0, ...counts.values());
  };
  const answers = new Map<string, Answer[]>();

  const send = async (v: PlannedVote, role: Answer["role"]): Promise<void> => {
    const res = await http.call<{ voteId?: string; error?: { code?: string }; code?: string }>(
      "POST /api/comparisons/:id/votes",
      "POST",
      `/api/comparisons/${ids[v.comparison]}/votes`,
      { choice: v.choice },
      { "X-Client-Id": `${opts.seed}-client-${v.client}`, "Idempotency-Key": v.key },
    );
    const body = res.body ?? {};
    const list = answers.get(v.key) ?? [];
    list.push({
      role,
      status: res.status,
      replayed: res.headers.get("Idempotent-Replayed") === "true",
      voteId: res.status === 201 ? (body.voteId ?? null) : null,
      code: res.status === 201 ? null : (body.error?.code ?? body.code ?? null),
    });
    answers.set(v.key, list);
  };

  // Each client sends its own votes one after another; a "later" replay goes in at a random later place
  // in the same client's queue (after the original answered), a "concurrent" one together with it.
  type Job = { vote: PlannedVote; what: "original" | "original+replay" | "replay" };
  const queues: Job[][] = Array.from({ length: opts.clients }, () => []);
  for (const v of votes)
    queues[v.client].push({ vote: v, what: v.replay === "concurrent" ? "original+replay" : "original" });
  for (const v of votes.filter((x) => x.replay === "later")) {
    const q = queues[v.client];
    const after = q.findIndex((j) => j.vote === v && j.what === "original");
    q.splice(random.int(after + 1, q.length), 0, { vote: v, what: "replay" });
  }
  let sent = 0;
  const total = queues.reduce((s, q) => s + q.length + q.filter((j) => j.what === "original+replay").length, 0);
  const progress = setInterval(
    () => log(`votes: ${sent.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} sent`),
    15_000,
  );
  const t0 = performance.now();
  try {
    await Promise.all(
      queues.map(async (q) => {
        for (const job of q) {
          if (job.what === "original") await send(job.vote, "original");
          else if (job.what === "replay") await send(job.vote, "replay");
          else await Promise.all([send(job.vote, "original"), send(job.vote, "replay")]);
          sent += job.what === "original+replay" ? 2 : 1;
        }
      }),
    );
  } finally {
    clearInterval(progress);
  }
  const seconds = (performance.now() - t0) / 1000;

  // What the answers say should be stored: one vote per key answered 201 (first or replayed).
  const expected = new Map<string, Choice>();
  const duplicated: string[] = [];
  const mismatched: string[] = [];
  const refused = new Map<string, number>();
  let accepted = 0;
  let replayed = 0;
  let replaysSent = 0;
  for (const v of votes) {
    const list = answers.get(v.key) ?? [];
    replaysSent += list.filter((a) => a.role === "replay").length;
    for (const a of list.filter((x) => x.status !== 201)) {
      const k = `${a.status === 0 ? "no answer" : a.status}${a.code ? ` ${a.code}` : ""}`;
      refused.set(k, (refused.get(k) ?? 0) + 1);
    }
    const fresh = list.filter((a) => a.status === 201 && !a.replayed);
    const again = list.filter((a) => a.status === 201 && a.replayed);
    accepted += new Set(fresh.map((a) => a.voteId)).size;
    replayed += again.length;
    if (fresh.length > 1)
      duplicated.push(
        `key ${v.key}: ${fresh.length} answers 201 without Idempotent-Replayed (votes ${fresh.map((a) => a.voteId).join(", ")})`,
      );
    const ids201 = new Set([...fresh, ...again].map((a) => a.voteId));
    if (ids201.size > 1) mismatched.push(`key ${v.key}: answered with different votes ${[...ids201].join(", ")}`);
    for (const id of ids201) if (id) expected.set(id, v.choice);
    if (!fresh.length && again.length)
      mismatched.push(
        `key ${v.key}: only replayed answers (${again.length}); its first request answered ${list
          .filter((a) => a.status !== 201)
          .map((a) => a.status)
          .join(", ")}`,
      );
  }

  // What D1 holds, vote by vote (all comparisons on the soak's models are this phase's).
  const inSoak = `comparison_id IN (SELECT id FROM comparisons WHERE model1_id IN ('${VOTE_MODELS.join("','")}'))`;
  const mv = await d1Rows<{ v: string; n: number }>(
    persistTo,
    `SELECT vote_id AS v, count(*) AS n FROM model_votes WHERE ${inSoak} GROUP BY vote_id`,
  );
  const bt = await d1Rows<{ v: string; n: number }>(
    persistTo,
    `SELECT vote_id AS v, count(*) AS n FROM battles WHERE source = 'human' AND ${inSoak} GROUP BY vote_id`,
  );
  const keys = await d1Rows<{ n: number }>(
    persistTo,
    `SELECT count(*) AS n FROM idempotency_keys WHERE key LIKE '${opts.seed}-vote-%'`,
  );
  const rowsOf = new Map(mv.map((r) => [r.v, Number(r.n)]));
  const battlesOf = new Map(bt.map((r) => [r.v, Number(r.n)]));
  const lost: string[] = [];
  let expectedModelVoteRows = 0;
  for (const [id, choice] of expected) {
    expectedModelVoteRows += MODEL_VOTE_ROWS[choice];
    const rows = rowsOf.get(id) ?? 0;
    if (rows < MODEL_VOTE_ROWS[choice])
      lost.push(`vote ${id} (${choice}): ${rows} model_votes row(s), ${MODEL_VOTE_ROWS[choice]} expected`);
    if (rows > MODEL_VOTE_ROWS[choice])
      duplicated.push(`vote ${id} (${choice}): ${rows} model_votes rows, ${MODEL_VOTE_ROWS[choice]} expected`);
    const b = battlesOf.get(id) ?? 0;
    if (b !== 1) (b < 1 ? lost : duplicated).push(`vote ${id}: ${b} battle rows, 1 expected`);
  }
  for (const [id, rows] of rowsOf)
    if (!expected.has(id))
      duplicated.push(`vote ${id}: ${rows} model_votes row(s) stored, but no request was answered with this vote`);
  for (const [id] of battlesOf)
    if (!expected.has(id))
      duplicated.push(`vote ${id}: a battle row stored, but no request was answered with this vote`);
  const storedKeys = Number(keys[0]?.n ?? 0);
  if (storedKeys < expected.size)
    lost.push(`idempotency_keys holds ${storedKeys} of the soak's keys; ${expected.size} votes were accepted`);
  if (storedKeys > expected.size)
    duplicated.push(
      `idempotency_keys holds ${storedKeys} of the soak's keys; only ${expected.size} votes were accepted`,
    );

  return {
    comparisons: ids.length,
    comparisonsReplaced: replaced,
    sent,
    originals: votes.length,
    replaysSent,
    accepted,
    replayed,
    refused,
    expectedModelVoteRows,
    stored: {
      modelVoteRows: [...rowsOf.values()].reduce((s, n) => s + n, 0),
      modelVoteIds: rowsOf.size,
      battles: [...battlesOf.values()].reduce((s, n) => s + n, 0),
      keys: storedKeys,
    },
    lost,
    duplicated,
    mismatched,
    mostPerClientPerComparison: tally((v) => `${v.client}/${v.comparison}`),
    mostPerComparison: tally((v) => String(v.comparison)),
    seconds,
    perSecond: sent / seconds,
  };
}
