import { For, Show } from "solid-js";
import type { Standings } from "../lib/api";
import { createShownWidth } from "../lib/shown-width";

type Row = Standings["rows"][number];

const ROW_H = 28;
const TOP = 8;
const AXIS_H = 40;
const PAD_RIGHT = 20;

/** A step of 1, 2 or 5 × 10ⁿ giving about `count` ticks over `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const base = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * base).find((s) => s >= raw) ?? 10 * base;
}

const round = (n: number) => Math.round(n);

/**
 * Each rated model's Bradley–Terry rating as a dot with its 95% interval as a bar, on one shared axis.
 * Drawn at the width it is shown at (not scaled), so its text stays readable on a phone.
 */
export function RatingChart(props: { rows: Row[] }) {
  const [width, measure] = createShownWidth();

  const rated = () => props.rows.filter((r): r is Row & { bt: number } => r.bt !== null);
  const labelW = () => Math.min(220, Math.round(width() * 0.36));
  const height = () => TOP + rated().length * ROW_H + AXIS_H;
  const scale = () => {
    const values = rated().flatMap((r) => [r.bt, r.ciLower ?? r.bt, r.ciUpper ?? r.bt]);
    let [lo, hi] = [Math.min(...values), Math.max(...values)];
    if (hi - lo < 20) [lo, hi] = [lo - 10, hi + 10];
    const step = niceStep(hi - lo, width() < 500 ? 3 : 6);
    const [min, max] = [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
    const ticks: number[] = [];
    for (let t = min; t <= max + step / 2; t += step) ticks.push(t);
    const [x0, x1] = [labelW() + 12, width() - PAD_RIGHT];
    return { ticks, x: (v: number) => x0 + ((v - min) / (max - min)) * (x1 - x0), x0, x1 };
  };
  const clip = (name: string) => {
    const max = Math.floor(labelW() / 7.5);
    return name.length > max ? `${name.slice(0, max - 1)}…` : name;
  };
  const summary = () =>
    rated()
      .map(
        (r) =>
          `${r.displayName}: ${round(r.bt)}${r.ciLower !== null && r.ciUpper !== null ? ` (95% interval ${round(r.ciLower)} to ${round(r.ciUpper)})` : ""}`,
      )
      .join("; ");

  return (
    <div class="rating-chart" ref={measure}>
      <Show when={rated().length} fallback={<p class="muted small">No model has a rating in this view yet.</p>}>
        <svg
          width={width()}
          height={height()}
          viewBox={`0 0 ${width()} ${height()}`}
          role="img"
          aria-labelledby="chart-title chart-desc"
          data-testid="rating-chart"
        >
          <title id="chart-title">Bradley–Terry rating of each model with its 95% interval</title>
          <desc id="chart-desc">{summary()}</desc>
          <For each={scale().ticks}>
            {(t) => (
              <g class="chart-grid">
                <line x1={scale().x(t)} x2={scale().x(t)} y1={TOP} y2={TOP + rated().length * ROW_H} />
                <text x={scale().x(t)} y={TOP + rated().length * ROW_H + 16} text-anchor="middle">
                  {t}
                </text>
              </g>
            )}
          </For>
          <text class="chart-axis-label" x={(scale().x0 + scale().x1) / 2} y={height() - 4} text-anchor="middle">
            Rating (Bradley–Terry, Arena scale)
          </text>
          <For each={rated()}>
            {(r, i) => {
              const y = () => TOP + i() * ROW_H + ROW_H / 2;
              return (
                <g class={r.provisional ? "chart-row provisional" : "chart-row"} data-model={r.modelId}>
                  <text class="chart-label" x={labelW()} y={y() + 4} text-anchor="end">
                    {clip(r.displayName)}
                  </text>
                  <Show when={r.ciLower !== null && r.ciUpper !== null}>
                    <line class="chart-ci" x1={scale().x(r.ciLower!)} x2={scale().x(r.ciUpper!)} y1={y()} y2={y()} />
                    <line
                      class="chart-ci-cap"
                      x1={scale().x(r.ciLower!)}
                      x2={scale().x(r.ciLower!)}
                      y1={y() - 5}
                      y2={y() + 5}
                    />
                    <line
                      class="chart-ci-cap"
                      x1={scale().x(r.ciUpper!)}
                      x2={scale().x(r.ciUpper!)}
                      y1={y() - 5}
                      y2={y() + 5}
                    />
                  </Show>
                  <circle class="chart-dot" cx={scale().x(r.bt)} cy={y()} r="5" />
                </g>
              );
            }}
          </For>
        </svg>
        <Show when={rated().some((r) => r.provisional)}>
          <p class="muted small">
            Dashed: provisional ratings (too few battles connect these models to the rest for an exact fit).
          </p>
        </Show>
      </Show>
    </div>
  );
}
