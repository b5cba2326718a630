import { For, Show } from "solid-js";
import type { SpendHistory } from "../lib/api";
import { formatSpend } from "../lib/format";
import { createShownWidth } from "../lib/shown-width";

type Day = SpendHistory["byDay"][number];

const TOP = 10;
const PLOT_H = 140;
const AXIS_H = 28;
const LEFT = 64;
const PAD_RIGHT = 12;

/** A round ceiling for the axis: 1, 2 or 5 × 10ⁿ at or above `max`. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const base = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].map((m) => m * base).find((s) => s >= max) ?? 10 * base) as number;
}

const axisUsd = (usd: number) => (usd === 0 ? "$0" : `$${Number(usd.toPrecision(2))}`);
const shortDay = (day: string) => day.slice(5);

/**
 * What was spent each UTC day as a bar, priced calls only; a day with calls of no known price is marked with
 * a ring above its bar, since its true cost is more than the bar shows. Drawn at the width it is shown at.
 */
export function SpendChart(props: { days: Day[] }) {
  const [width, measure] = createShownWidth();

  const max = () => niceMax(Math.max(...props.days.map((d) => d.usd)));
  const slot = () => (width() - LEFT - PAD_RIGHT) / Math.max(1, props.days.length);
  const x = (i: number) => LEFT + i * slot();
  const y = (usd: number) => TOP + PLOT_H - (usd / max()) * PLOT_H;
  // Every 7th day labelled on a phone, every 5th on a desktop, and always the last (today).
  const labelled = (i: number) => {
    const every = width() < 500 ? 7 : 5;
    return (props.days.length - 1 - i) % every === 0;
  };
  const summary = () => {
    const spent = props.days.filter((d) => d.calls > 0);
    if (!spent.length) return `No calls from ${props.days[0]?.day} to ${props.days.at(-1)?.day}.`;
    return spent.map((d) => `${d.day}: ${formatSpend(d)} in ${d.calls} calls`).join("; ");
  };

  return (
    <div class="rating-chart spend-chart" ref={measure}>
      <svg
        width={width()}
        height={TOP + PLOT_H + AXIS_H}
        viewBox={`0 0 ${width()} ${TOP + PLOT_H + AXIS_H}`}
        role="img"
        aria-labelledby="spend-chart-title spend-chart-desc"
        data-testid="spend-chart"
      >
        <title id="spend-chart-title">
          Spend per UTC day, {props.days[0]?.day} to {props.days.at(-1)?.day}
        </title>
        <desc id="spend-chart-desc">{summary()}</desc>
        <For each={[0, max() / 2, max()]}>
          {(t) => (
            <g class="chart-grid">
              <line x1={LEFT} x2={width() - PAD_RIGHT} y1={y(t)} y2={y(t)} />
              <text x={LEFT - 6} y={y(t) + 4} text-anchor="end">
                {axisUsd(t)}
              </text>
            </g>
          )}
        </For>
        <For each={props.days}>
          {(d, i) => (
            <g>
              <rect
                class="spend-bar"
                x={x(i()) + slot() * 0.15}
                width={Math.max(1, slot() * 0.7)}
                y={y(d.usd)}
                height={TOP + PLOT_H - y(d.usd)}
              />
              <Show when={d.unknownCostCalls > 0}>
                <circle class="spend-unknown" cx={x(i()) + slot() / 2} cy={y(d.usd) - 6} r={3} />
              </Show>
              <Show when={labelled(i())}>
                <text class="chart-grid-label" x={x(i()) + slot() / 2} y={TOP + PLOT_H + 18} text-anchor="middle">
                  {shortDay(d.day)}
                </text>
              </Show>
            </g>
          )}
        </For>
      </svg>
    </div>
  );
}
