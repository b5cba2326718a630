import { createMemo, createSignal, For, type JSX, Show } from "solid-js";
import { matchModels, type ModelOption } from "../lib/model-match";

interface Props {
  /** the input's id: its <label for> is the caller's, so the label text stays where the form reads it */
  id: string;
  ref?: (el: HTMLInputElement) => void;
  value: string;
  onValue: (value: string) => void;
  options: ModelOption[];
  /** the field holds several ids, comma-separated: suggestions follow the one being typed */
  multiple?: boolean;
  placeholder?: string;
  /** ids of help text the input is described by, besides its error */
  describedBy?: string;
  /** shown under the field and announced with it; null or "" when the field is fine */
  error?: string | null;
  /** marks the field invalid when its message lives elsewhere (in describedBy) */
  invalid?: boolean;
  /** the field lost the focus (its suggestions close either way) */
  onBlur?: () => void;
  /** keys the picker leaves alone (Enter with no suggestion highlighted, say) */
  onKeyDown?: (e: KeyboardEvent) => void;
}

/** The id being typed: the whole value, or in a list the part after the last comma. */
const split = (value: string, multiple: boolean) => {
  const at = multiple ? value.lastIndexOf(",") + 1 : 0;
  return { head: value.slice(0, at), typed: value.slice(at) };
};

/**
 * A text field for model ids with the catalog's models as suggestions (the WAI-ARIA combobox with a list
 * popup): typing filters them, arrows move through them, Enter or a click chooses one, Escape closes them.
 * Any id can still be typed, so models the catalog doesn't list stay reachable.
 */
export function ModelCombobox(props: Props) {
  const [open, setOpen] = createSignal(false);
  const [active, setActive] = createSignal(-1);
  const listId = () => `${props.id}-options`;
  const errorId = () => `${props.id}-error`;
  const optionId = (i: number) => `${props.id}-option-${i}`;

  const matches = createMemo(() => {
    const { head, typed } = split(props.value, !!props.multiple);
    const taken = props.multiple ? head.split(/[\s,]+/).filter(Boolean) : [];
    return matchModels(props.options, typed, taken).slice(0, 50);
  });
  const expanded = () => open() && matches().length > 0;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (option: ModelOption) => {
    const { head } = split(props.value, !!props.multiple);
    props.onValue(head ? `${head.trimEnd()} ${option.id}` : option.id);
    close();
  };
  const move = (by: number) => {
    const n = matches().length;
    if (!n) return;
    setOpen(true);
    const next = active() < 0 ? (by > 0 ? 0 : n - 1) : (active() + by + n) % n;
    setActive(next);
    document.getElementById(optionId(next))?.scrollIntoView({ block: "nearest" });
  };

  const onKeyDown: JSX.EventHandler<HTMLInputElement, KeyboardEvent> = (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (e.altKey) setOpen(e.key === "ArrowDown");
      else move(e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter" && expanded() && active() >= 0) {
      e.preventDefault();
      choose(matches()[active()]);
    } else if (e.key === "Escape" && expanded()) {
      e.preventDefault();
      close();
    }
    if (!e.defaultPrevented) props.onKeyDown?.(e);
  };

  const describedBy = () => [props.describedBy, props.error && errorId()].filter(Boolean).join(" ") || undefined;

  return (
    <div class="combobox-field">
      <div class="combobox">
        <input
          id={props.id}
          ref={(el) => props.ref?.(el)}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded()}
          aria-controls={listId()}
          aria-activedescendant={expanded() && active() >= 0 ? optionId(active()) : undefined}
          aria-describedby={describedBy()}
          aria-invalid={props.invalid ?? !!props.error}
          placeholder={props.placeholder ?? "provider:model-name"}
          autocomplete="off"
          spellcheck={false}
          value={props.value}
          onInput={(e) => {
            props.onValue(e.currentTarget.value);
            setActive(-1);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            close();
            props.onBlur?.();
          }}
        />
        <div id={listId()} role="listbox" aria-label="Models" class="combobox-options" hidden={!expanded()}>
          <For each={expanded() ? matches() : []}>
            {(option, i) => (
              <div
                id={optionId(i())}
                role="option"
                tabIndex={-1}
                aria-selected={active() === i()}
                classList={{ active: active() === i() }}
                // Chosen on press, with the default (moving the focus) prevented: the input keeps the focus.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(option);
                }}
              >
                {option.name} <span class="muted small">{option.id}</span>
              </div>
            )}
          </For>
        </div>
      </div>
      <Show when={props.error}>
        <p id={errorId()} class="field-error small">
          {props.error}
        </p>
      </Show>
    </div>
  );
}
