/** A History item's checkbox: picks its prompt for a new prompt set. */
export function PickBox(props: { picked: boolean; onPick: (picked: boolean) => void; text: string }) {
  return (
    <label class="check small history-pick">
      <input
        type="checkbox"
        checked={props.picked}
        aria-label={`Pick "${props.text.slice(0, 60)}" for a prompt set`}
        onChange={(e) => props.onPick(e.currentTarget.checked)}
      />
      Pick
    </label>
  );
}
