import { exportUrl } from "../lib/api";

/** The two downloads of a run, as buttons. */
export function ExportLinks(props: { runId: string; small?: boolean }) {
  const cls = () => (props.small ? "button small" : "button");
  return (
    <>
      <a class={cls()} href={exportUrl(props.runId, "json")} download="">
        Export JSON
      </a>
      <a class={cls()} href={exportUrl(props.runId, "md")} download="">
        Export Markdown
      </a>
    </>
  );
}
