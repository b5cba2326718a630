import { createEffect, createSignal, on, onCleanup, Show } from "solid-js";
import type { ComparisonDetail } from "../../../worker/shared/arena";
import { SIDES, type Side } from "../../../worker/shared/constants";
import { latestTurn, SIDE_LETTER } from "../lib/arena-state";
import { createMediaQuery, PHONE_QUERY } from "../lib/media-query";
import { scrollSync } from "../lib/scroll-sync";
import type { Segment } from "../lib/word-diff";
import { ArenaPane, STATUS_TEXT, working } from "./arena-pane";
import { panelId, tabId, Tabs } from "./tabs";

interface Props {
  /** null before the first prompt: two empty panes */
  detail: ComparisonDetail | null;
  retrying?: boolean;
  /** left out where nothing may change (a shared page) */
  onRetry?: () => void;
  /** the latest replies as runs of shared and different words, while differences are highlighted */
  diff?: { left: Segment[]; right: Segment[] } | null;
}

const TABS_ID = "arena-sides";

/**
 * The two sides of a comparison. On a desktop they stand side by side, each conversation in a box of its own that
 * scrolls with the other's ("Scroll together", on unless turned off); on a phone they are two tabs under a header
 * that stays in view, so one answer has the screen and the other is a tap away. Tabs name a side by its letter and
 * status only: nothing in them may tell who answered.
 */
export function ArenaPanes(props: Props) {
  const phone = createMediaQuery(PHONE_QUERY);
  const tabbed = () => phone() && props.detail !== null;
  const [shown, setShown] = createSignal<Side>("left");
  const [together, setTogether] = createSignal(true);
  const sync = scrollSync(together);
  const boxes: Partial<Record<Side, HTMLElement>> = {};

  const follow = (side: Side, el: HTMLElement) => {
    boxes[side] = el;
    const stop = sync.add(el);
    const onScroll = () => sync.scrolled(el);
    el.addEventListener("scroll", onScroll, { passive: true });
    onCleanup(() => {
      stop();
      el.removeEventListener("scroll", onScroll);
    });
  };
  // A new turn (a follow-up, Regenerate both) starts at the bottom of each box: bring its prompt into view.
  createEffect(
    on(
      () => props.detail?.turns.length ?? 0,
      (turns, before) => {
        if (before === undefined || turns <= before || phone()) return;
        for (const side of SIDES) {
          const box = boxes[side];
          const turn = box?.querySelector<HTMLElement>(`.turn[data-turn="${turns}"]`);
          if (box && turn) sync.jump(box, turn.offsetTop);
        }
      },
    ),
  );

  const tabLabel = (side: Side) => {
    const s = () => (props.detail ? latestTurn(props.detail)?.[side] : undefined);
    return (
      <>
        <span class="tab-side">Model {SIDE_LETTER[side]}</span>
        <Show when={s()}>
          {(v) => (
            <span class={`tab-status status-${v().status}`}>
              <Show when={working(v())}>
                <span class="spinner" aria-hidden="true" />
              </Show>
              {STATUS_TEXT[v().status]}
            </span>
          )}
        </Show>
      </>
    );
  };

  const pane = (side: Side) => (
    <ArenaPane
      side={side}
      detail={props.detail}
      retrying={props.retrying}
      onRetry={props.onRetry}
      diff={props.diff?.[side] ?? null}
      scrolls={!phone()}
      scrollRef={(el) => follow(side, el)}
    />
  );
  const slot = (side: Side) => (
    <Show when={tabbed()} fallback={pane(side)}>
      <div
        class="tab-panel"
        role="tabpanel"
        id={panelId(TABS_ID, side)}
        aria-labelledby={tabId(TABS_ID, side)}
        tabindex="0"
        hidden={shown() !== side}
      >
        {pane(side)}
      </div>
    </Show>
  );

  return (
    <>
      <Show when={tabbed()}>
        <div class="pane-tabs">
          <Tabs
            id={TABS_ID}
            label="The two answers"
            tabs={SIDES.map((side) => ({ value: side, label: tabLabel(side) }))}
            selected={shown()}
            onSelect={setShown}
          />
        </div>
      </Show>
      <Show when={!phone() && props.detail?.turns.length}>
        <p class="pane-tools">
          <button
            type="button"
            class="small"
            aria-pressed={together()}
            title="Scrolling one answer scrolls the other to the same place in its own text"
            onClick={() => setTogether(!together())}
          >
            Scroll together
          </button>
        </p>
      </Show>
      <div class="arena-panes" classList={{ tabbed: tabbed() }}>
        {slot("left")}
        {slot("right")}
      </div>
    </>
  );
}
