import { For, type JSX, Show } from "solid-js";

interface Props<T extends string> {
  label: string;
  /** each tab's label: text, or text with parts of its own (a status, say) */
  tabs: readonly { value: T; label: JSX.Element }[];
  selected: T;
  onSelect: (value: T) => void;
  /** ids are `${id}-tab-${value}`, and the panel each controls `${id}-panel-${value}` */
  id: string;
}

export const tabId = (id: string, value: string) => `${id}-tab-${value}`;
export const panelId = (id: string, value: string) => `${id}-panel-${value}`;

/**
 * A tab list as the ARIA practices describe it: one tab in the Tab order (the selected one), the arrow
 * keys, Home and End move between tabs and select as they go.
 */
export function Tabs<T extends string>(props: Props<T>) {
  const buttons: HTMLButtonElement[] = [];
  const move = (e: KeyboardEvent, index: number) => {
    const n = props.tabs.length;
    const to = { ArrowRight: (index + 1) % n, ArrowLeft: (index - 1 + n) % n, Home: 0, End: n - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    props.onSelect(props.tabs[to].value);
    buttons[to]?.focus();
  };
  return (
    <div class="tabs" role="tablist" aria-label={props.label}>
      <For each={props.tabs}>
        {(t, i) => (
          <button
            type="button"
            role="tab"
            id={tabId(props.id, t.value)}
            aria-selected={props.selected === t.value}
            aria-controls={panelId(props.id, t.value)}
            tabindex={props.selected === t.value ? 0 : -1}
            ref={(el) => (buttons[i()] = el)}
            onClick={() => props.onSelect(t.value)}
            onKeyDown={(e) => move(e, i())}
          >
            {t.label}
          </button>
        )}
      </For>
    </div>
  );
}

/**
 * What one tab shows: with `tabbed`, a tab panel labelled by its tab and hidden unless that tab is selected; without
 * (a wide screen showing every side at once), the content alone.
 */
export function TabPanel(props: {
  id: string;
  value: string;
  selected: boolean;
  tabbed: boolean;
  children: JSX.Element;
}) {
  return (
    <Show when={props.tabbed} fallback={props.children}>
      <div
        class="tab-panel"
        role="tabpanel"
        id={panelId(props.id, props.value)}
        aria-labelledby={tabId(props.id, props.value)}
        tabindex="0"
        hidden={!props.selected}
      >
        {props.children}
      </div>
    </Show>
  );
}
