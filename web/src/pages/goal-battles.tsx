import { createSignal, For, onCleanup, Show } from "solid-js";
import { Alert } from "../components/alert";
import { GoalBattleCard } from "../components/goal-battle/battle-card";
import { GoalLaunchForm } from "../components/goal-battle/launch-form";
import { messageOf } from "../lib/api";
import { listGoalBattles } from "../lib/goal-battle-api";
import type { GoalBattleSummary } from "../lib/goal-battle-types";

interface Entry {
  jobId: string;
  initial?: GoalBattleSummary;
}

/** The Battles page: the launch form, then a card per battle, newest first, the running ones live. */
export default function GoalBattlesPage() {
  const [entries, setEntries] = createSignal<Entry[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(true);
  const [now, setNow] = createSignal(Date.now());
  const timer = setInterval(() => setNow(Date.now()), 1000);
  onCleanup(() => clearInterval(timer));
  document.title = "Battles · Quorum";

  const load = async (from: string | null) => {
    setLoading(true);
    try {
      const page = await listGoalBattles(from);
      setEntries((known) => {
        const seen = new Set(known.map((e) => e.jobId));
        return [
          ...known,
          ...page.battles.filter((b) => !seen.has(b.jobId)).map((b) => ({ jobId: b.jobId, initial: b })),
        ];
      });
      setCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setLoading(false);
    }
  };
  void load(null);

  return (
    <>
      <h1>Goal battles</h1>
      <p class="muted">
        Two contestants pursue the same goal, turn after turn, with a simulated user; the first to reach it wins (fewer
        turns, then fewer tokens, then faster), otherwise a judge or your vote decides. Sides stay blind until the end.
      </p>
      <GoalLaunchForm onLaunched={(jobId) => setEntries((known) => [{ jobId }, ...known])} />
      <section aria-labelledby="goal-list-title">
        <h2 id="goal-list-title">Battles</h2>
        <Alert message={error()} />
        <Show when={entries().length || loading()} fallback={<p class="muted">No battle yet: launch one above.</p>}>
          <ul class="goal-cards" data-testid="goal-battles">
            <For each={entries()}>{(e) => <GoalBattleCard jobId={e.jobId} initial={e.initial} now={now} />}</For>
          </ul>
        </Show>
        <Show when={cursor()}>
          {(c) => (
            <p>
              <button type="button" disabled={loading()} onClick={() => void load(c())}>
                Older battles
              </button>
            </p>
          )}
        </Show>
      </section>
    </>
  );
}
