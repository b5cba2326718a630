import { createEffect, createSignal, on, Show } from "solid-js";
import type { ComparisonDetail } from "../../../worker/shared/arena";
import { SIDES, type Side } from "../../../worker/shared/constants";
import { latestTurn, SIDE_LETTER } from "../lib/arena-state";
import { createMediaQuery, PHONE_QUERY } from "../lib/media-query";
import { followScroll } from "../lib/scroll-follow";
import { scrollSync } from "../lib/scroll-sync";
import type { Segment } from "../lib/word-diff";
import { ArenaPane, STATUS_TEXT, working } from "./arena-pane";
import { TabPanel, Tabs } from "./tabs";

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
    followScroll(sync, el);
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
    <TabPanel id={TABS_ID} value={side} selected={shown() === side} tabbed={tabbed()}>
      {pane(side)}
    </TabPanel>
  );

  // One box around the tabs and the panes: the sticky tabs stay in view only while their answers are.
  return (
    <div class="arena-sides">
      <Show when={tabbed()}>
        <SideTabs detail={props.detail} selected={shown()} onSelect={setShown} />
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
    </div>
  );
}

/** "Model A" and "Model B" as tabs, each with its side's status: a letter and a state, never who answered. */
function SideTabs(props: { detail: ComparisonDetail | null; selected: Side; onSelect: (side: Side) => void }) {
  const status = (side: Side) => (props.detail ? latestTurn(props.detail)?.[side] : undefined);
  // Built once: the tab list reads its tabs again on every key press, and must get the same labels back.
  const tabs = SIDES.map((side) => ({
    value: side,
    label: (
      <>
        <span class="tab-side">Model {SIDE_LETTER[side]}</span>
        <Show when={status(side)}>
          {(s) => (
            <span class={`tab-status status-${s().status}`}>
              <Show when={working(s())}>
                <span class="spinner" aria-hidden="true" />
              </Show>
              {STATUS_TEXT[s().status]}
            </span>
          )}
        </Show>
      </>
    ),
  }));
  return (
    <div class="pane-tabs">
      <Tabs id={TABS_ID} label="The two answers" tabs={tabs} selected={props.selected} onSelect={props.onSelect} />
    </div>
  );
}
