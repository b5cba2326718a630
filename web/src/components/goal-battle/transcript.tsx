import { createSignal, Show } from "solid-js";
import type { GoalBattleSummary, GoalSide } from "../../lib/goal-battle-types";
import { GOAL_SIDES } from "../../lib/goal-battle-types";
import type { TranscriptTurn } from "../../lib/goal-transcript";
import { createMediaQuery, PHONE_QUERY } from "../../lib/media-query";
import { followScroll } from "../../lib/scroll-follow";
import { scrollSync } from "../../lib/scroll-sync";
import { TabPanel, Tabs } from "../tabs";
import { GoalSideColumn } from "./side-column";

interface Props {
  battle: GoalBattleSummary;
  titleOf: (side: GoalSide) => string;
  turnsOf: (side: GoalSide) => TranscriptTurn[];
  streaming: Record<GoalSide, { turn: number; text: string } | null>;
}

const TABS_ID = "goal-sides";

/**
 * Both sides' conversations: side by side on a desktop, each in its own box scrolling with the other's (as the
 * arena's panes do); on a phone, two tabs under a header that stays in view.
 */
export function GoalTranscript(props: Props) {
  const phone = createMediaQuery(PHONE_QUERY);
  const [shown, setShown] = createSignal<GoalSide>("A");
  const [together, setTogether] = createSignal(true);
  const sync = scrollSync(together);
  const follow = (el: HTMLElement) => followScroll(sync, el);
  const column = (side: GoalSide) => (
    <GoalSideColumn
      side={side}
      battle={props.battle}
      title={props.titleOf(side)}
      turns={props.turnsOf(side)}
      streaming={props.streaming[side]}
      scrolls={!phone()}
      scrollRef={follow}
    />
  );
  const slot = (side: GoalSide) => (
    <TabPanel id={TABS_ID} value={side} selected={shown() === side} tabbed={phone()}>
      {column(side)}
    </TabPanel>
  );
  const tabs = GOAL_SIDES.map((side) => ({ value: side, label: <span class="tab-side">{props.titleOf(side)}</span> }));
  return (
    <div class="arena-sides goal-transcript">
      <Show
        when={phone()}
        fallback={
          <p class="pane-tools">
            <button
              type="button"
              class="small"
              aria-pressed={together()}
              title="Scrolling one conversation scrolls the other to the same place in its own"
              onClick={() => setTogether(!together())}
            >
              Scroll together
            </button>
          </p>
        }
      >
        <div class="pane-tabs">
          <Tabs id={TABS_ID} label="The two sides" tabs={tabs} selected={shown()} onSelect={setShown} />
        </div>
      </Show>
      <div class="arena-panes" classList={{ tabbed: phone() }}>
        {slot("A")}
        {slot("B")}
      </div>
    </div>
  );
}
