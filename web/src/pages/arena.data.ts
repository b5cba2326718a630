/** An arena comparison as its page sees it, and the calls the page makes on it. */
import { createSignal } from "solid-js";
import type { ComparisonDetail, VoteChoice } from "../../../worker/shared/arena";
import type { ComparisonEvent } from "../../../worker/shared/events";
import { api, call, comparisonLiveUrl, type CreateComparisonBody } from "../lib/api";
import {
  applyComparisonEvent,
  checkJudgeIds,
  judgeIdsProblem,
  mergeJudges,
  modelIdProblem,
  parseJudgeIds,
  recordVote,
} from "../lib/arena-state";
import { createLiveDoc } from "../lib/live-doc";
import { numberField } from "./setup.data";
import { type ComparisonMode, MAX_OUTPUT_TOKENS, MAX_TEMPERATURE } from "../../../worker/shared/constants";

const CLIENT_KEY = "quorum.clientId";
const RECEIPTS_KEY = "quorum.voteReceipts";

const randomId = () => crypto.randomUUID();

/** This browser's id for the arena: lets the server flag a second vote on the same comparison as a duplicate. */
function clientId(): string {
  let id = localStorage.getItem(CLIENT_KEY);
  if (!id) {
    id = randomId();
    localStorage.setItem(CLIENT_KEY, id);
  }
  return id;
}

/** voteId → receipt, for the votes cast from this browser: the receipt is what lets the page withdraw its own vote. */
function storedReceipts(): Record<string, string> {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(RECEIPTS_KEY) ?? "{}");
    if (!kept || typeof kept !== "object" || Array.isArray(kept)) return {};
    return Object.fromEntries(Object.entries(kept).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

/** Votes cast from this browser: only those offer "Change vote". A signal: the vote's event may arrive before its response. */
const [myReceipts, setMyReceipts] = createSignal(storedReceipts());

export const isMyVote = (voteId: string) => Object.hasOwn(myReceipts(), voteId);

function rememberVote(voteId: string, receipt: string) {
  // The newest 200 only: insertion order is the order they were cast.
  const kept = Object.fromEntries(
    Object.entries({ ...storedReceipts(), ...myReceipts(), [voteId]: receipt }).slice(-200),
  );
  try {
    localStorage.setItem(RECEIPTS_KEY, JSON.stringify(kept));
  } catch {
    // Storage disabled: the receipt lasts as long as the page.
  }
  setMyReceipts(kept);
}

const askedKey = (id: string) => `quorum.judgesAsked.${id}`;

/** The turn judges were last asked at from this tab: the server says nothing of them before the vote. */
function askedAt(id: string): number | null {
  try {
    const turn = Number(sessionStorage.getItem(askedKey(id)));
    return Number.isInteger(turn) && turn > 0 ? turn : null;
  } catch {
    return null;
  }
}

export function createLiveComparison(id: string) {
  const [judgesAskedAt, setJudgesAskedAt] = createSignal(askedAt(id));
  const doc = createLiveDoc<ComparisonDetail, ComparisonEvent>({
    cacheKey: `quorum.comparison.${id}`,
    url: (since) => comparisonLiveUrl(id, since),
    load: () => call(api.comparisons[":id"].$get({ param: { id } })),
    apply: applyComparisonEvent,
    notFound: "This comparison doesn't exist.",
  });
  const param = { param: { id } };
  /** Judges join silently (only a finished one is announced): ask the room which are at work now. */
  const learnJudges = async () => {
    const fetched = await call(api.comparisons[":id"].$get(param)).catch(() => null);
    if (fetched) doc.update((d) => mergeJudges(d, fetched));
  };
  return {
    get detail() {
      return doc.state;
    },
    connection: doc.connection,
    loadError: doc.loadError,
    /** A fresh Idempotency-Key per click: a retried request is counted once, a second click is a second vote. */
    async vote(choice: VoteChoice) {
      const res = await call(
        api.comparisons[":id"].votes.$post(
          { ...param, json: { choice } },
          { headers: { "Idempotency-Key": randomId(), "X-Client-Id": clientId() } },
        ),
      );
      rememberVote(res.voteId, res.receipt);
      const vote = {
        voteId: res.voteId,
        choice: res.choice,
        rows: res.rows,
        flags: res.flags,
        createdAt: res.rows[0]?.createdAt ?? Date.now(),
      };
      doc.update((d) => recordVote(d, vote, res.reveal, "voted"));
      void learnJudges();
      return res;
    },
    /** Judges were asked at the latest turn (a new turn sets them aside on the server too). */
    judgesAsked: () => {
      const turn = judgesAskedAt();
      return turn !== null && turn === doc.state?.turns.length;
    },
    /** Asks judges (ids as typed); verdicts stay hidden until the first vote. */
    async askJudges(raw: string) {
      const judges = checkJudgeIds(parseJudgeIds(raw));
      if (!judges.length) throw new Error("Name at least one judge model, as provider:model-name.");
      await call(api.comparisons[":id"].judge.$post({ ...param, json: { judges } }));
      rememberJudges(raw);
      const turn = doc.state?.turns.length ?? 1;
      try {
        sessionStorage.setItem(askedKey(id), String(turn));
      } catch {
        // Storage disabled: the note lasts as long as the page.
      }
      setJudgesAskedAt(turn);
      if (doc.state?.judges) await learnJudges();
      return judges;
    },
    async withdraw(voteId: string) {
      // With APP_TOKEN set the token alone may withdraw; without one, the receipt this page kept is the right to.
      const receipt = myReceipts()[voteId];
      const res = await call(
        api.votes[":voteId"].$delete({ param: { voteId } }, { headers: receipt ? { "X-Vote-Receipt": receipt } : {} }),
      );
      doc.update((d) => {
        d.votes = d.votes.filter((v) => v.voteId !== voteId);
        d.comparison.status = res.status as ComparisonDetail["comparison"]["status"];
      });
    },
    retry: () => call(api.comparisons[":id"].retry.$post(param)),
    send: (content: string) => call(api.comparisons[":id"].messages.$post({ ...param, json: { content } })),
  };
}

/** The choices of the next new round, kept across rounds and visits. Fields stay strings until sent. */
export interface ArenaOptions {
  mode: ComparisonMode;
  first: string;
  second: string;
  category: string;
  blind: boolean;
  temperature: string;
  maxTokens: string;
  systemPrompt: string;
  /** judge model ids, comma-separated: asked after the first vote, and offered by "Ask judges" */
  judges: string;
}

const OPTIONS_KEY = "quorum.arena";

export function loadOptions(): ArenaOptions {
  const defaults: ArenaOptions = {
    mode: "sampled",
    first: "",
    second: "",
    category: "",
    blind: true,
    temperature: "",
    maxTokens: "",
    systemPrompt: "",
    judges: "",
  };
  try {
    return {
      ...defaults,
      ...(JSON.parse(localStorage.getItem(OPTIONS_KEY) ?? "null") as Partial<ArenaOptions> | null),
    };
  } catch {
    return defaults;
  }
}

export const saveOptions = (o: ArenaOptions) => localStorage.setItem(OPTIONS_KEY, JSON.stringify(o));

/** Judges asked on a round become the next rounds' auto-judges too: one list of judges to keep. */
function rememberJudges(raw: string) {
  saveOptions({ ...loadOptions(), judges: raw.trim() });
}

export type ArenaFieldErrors = Partial<Record<"first" | "second" | "judges", string>>;

/** What is wrong with each model field of the options, shown beside the field; {} when all can be sent. */
export function arenaFieldErrors(o: ArenaOptions): ArenaFieldErrors {
  const errors: ArenaFieldErrors = {};
  if (o.mode === "manual") {
    const first = modelIdProblem(o.first);
    const second =
      modelIdProblem(o.second) ?? (o.first.trim() === o.second.trim() ? "The two models must differ." : null);
    if (first) errors.first = first;
    if (second) errors.second = second;
  }
  const judges = judgeIdsProblem(o.judges);
  if (judges) errors.judges = judges;
  return errors;
}

/** The request body of a new round, or an Error naming the field that is wrong. */
export function buildComparisonBody(o: ArenaOptions, prompt: string): CreateComparisonBody {
  if (!prompt.trim()) throw new Error("Write a prompt first.");
  const params = {
    temperature: numberField("Temperature", o.temperature, 0, MAX_TEMPERATURE, false),
    maxTokens: numberField("Max tokens", o.maxTokens, 1, MAX_OUTPUT_TOKENS, true),
    systemPrompt: o.systemPrompt.trim() ? o.systemPrompt : undefined,
  };
  const body: CreateComparisonBody = { prompt, blind: o.blind, mode: o.mode };
  if (Object.values(params).some((v) => v !== undefined)) body.params = params;
  if (o.category.trim()) body.category = o.category.trim();
  if (o.mode === "manual") {
    const [a, b] = [o.first.trim(), o.second.trim()];
    if (!a || !b) throw new Error("Name both models, or let the arena sample a pair.");
    if (a === b) throw new Error("The two models must differ.");
    body.models = [a, b];
  }
  const judges = checkJudgeIds(parseJudgeIds(o.judges));
  if (judges.length) body.judges = judges;
  return body;
}
