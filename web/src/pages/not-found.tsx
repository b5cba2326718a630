import { Link } from "../lib/router";
import { onMount } from "solid-js";

export default function NotFoundPage() {
  onMount(() => (document.title = "Not found · Quorum"));
  return (
    <section class="page">
      <h1>Nothing here</h1>
      <p>
        This address doesn't lead anywhere in Quorum. <Link href="/">Start a new run</Link> or open one from{" "}
        <Link href="/history">History</Link>.
      </p>
    </section>
  );
}
