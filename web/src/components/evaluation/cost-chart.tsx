import { For, Show } from "solid-js";
import type { EvaluationReport } from "../../lib/api";

const WIDTH = 560;
const HEIGHT = 260;
const PAD = { left: 56, right: 16, top: 16, bottom: 40 };

/**
 * Rating against cost: one dot per priced contestant, the frontier (best rating for the money) joined by a line.
 * Cost runs on a log scale when the contestants' costs span more than ten times. The leaderboard carries the same figures.
 */
export function CostChart(props: { report: EvaluationReport }) {
  const points = () => props.report.rows.filter((r) => r.costUsd !== null && r.bt !== null);
  const scale = () => {
    const pts = points();
    const costs = pts.map((p) => p.costUsd as number);
    const ratings = pts.flatMap((p) => [p.ciLower ?? p.bt, p.ciUpper ?? p.bt]).filter((x): x is number => x !== null);
    const [cMin, cMax] = [Math.min(...costs), Math.max(...costs)];
    const log = cMin > 0 && cMax / cMin > 10;
    const tx = (c: number) => (log ? Math.log10(c) : c);
    // One cost for all (the demo models are free): the dots stand in the middle.
    const [x0, x1] = cMin === cMax ? [tx(cMin) - 1, tx(cMax) + 1] : [tx(cMin), tx(cMax)];
    const [rMin, rMax] = [Math.min(...ratings), Math.max(...ratings)];
    const [y0, y1] = rMin === rMax ? [rMin - 50, rMax + 50] : [rMin, rMax];
    const innerW = WIDTH - PAD.left - PAD.right;
    const innerH = HEIGHT - PAD.top - PAD.bottom;
    return {
      log,
      x: (c: number) => PAD.left + ((tx(c) - x0) / (x1 - x0 || 1)) * innerW,
      y: (r: number) => PAD.top + (1 - (r - y0) / (y1 - y0)) * innerH,
      cMin,
      cMax,
      y0,
      y1,
    };
  };
  const frontier = () =>
    points()
      .filter((p) => p.onCostFrontier)
      .sort((a, b) => (a.costUsd ?? 0) - (b.costUsd ?? 0));
  return (
    <figure class="cost-chart">
      <Show
        when={points().length > 0}
        fallback={<p class="muted">No priced contestant to chart: costs are unknown.</p>}
      >
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-label="Rating against cost; the line joins the contestants that are best for their cost"
        >
          <line x1={PAD.left} y1={HEIGHT - PAD.bottom} x2={WIDTH - PAD.right} y2={HEIGHT - PAD.bottom} class="axis" />
          <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={HEIGHT - PAD.bottom} class="axis" />
          <text x={PAD.left} y={HEIGHT - 8} class="tick">
            ${scale().cMin.toFixed(4)}
          </text>
          <text x={WIDTH - PAD.right} y={HEIGHT - 8} class="tick" text-anchor="end">
            ${scale().cMax.toFixed(4)} {scale().log ? "(log scale)" : ""}
          </text>
          <text x={8} y={PAD.top + 10} class="tick">
            {scale().y1.toFixed(0)}
          </text>
          <text x={8} y={HEIGHT - PAD.bottom} class="tick">
            {scale().y0.toFixed(0)}
          </text>
          <polyline
            class="frontier"
            points={frontier()
              .map((p) => `${scale().x(p.costUsd as number)},${scale().y(p.bt as number)}`)
              .join(" ")}
          />
          <For each={points()}>
            {(p) => (
              <g>
                <line
                  class="interval"
                  x1={scale().x(p.costUsd as number)}
                  x2={scale().x(p.costUsd as number)}
                  y1={scale().y(p.ciLower ?? (p.bt as number))}
                  y2={scale().y(p.ciUpper ?? (p.bt as number))}
                />
                <circle
                  class={p.onCostFrontier ? "dot frontier-dot" : "dot"}
                  cx={scale().x(p.costUsd as number)}
                  cy={scale().y(p.bt as number)}
                  r="5"
                />
                <text x={scale().x(p.costUsd as number) + 8} y={scale().y(p.bt as number) - 6} class="label">
                  {p.displayName}
                </text>
              </g>
            )}
          </For>
        </svg>
      </Show>
      <figcaption class="muted small">
        Rating (with its 95% interval) against what the contestant's answers cost. Filled dots are best for their cost:
        nothing cheaper rates higher.
      </figcaption>
    </figure>
  );
}
