import { exportUrl } from "../lib/api";
import { DownloadLink } from "./download-link";

/** The two downloads of a run, as buttons. */
export function ExportLinks(props: { runId: string; small?: boolean }) {
  const cls = () => (props.small ? "button small" : "button");
  return (
    <>
      <DownloadLink class={cls()} href={exportUrl(props.runId, "json")}>
        Export JSON
      </DownloadLink>
      <DownloadLink class={cls()} href={exportUrl(props.runId, "md")}>
        Export Markdown
      </DownloadLink>
    </>
  );
}
