/** The demo model list, and the style each model answers and reviews in. */
import { ProviderError, type ModelInfo } from "../types";

export type DemoStyle = "concise" | "thorough" | "skeptic";

const demoModel = (name: DemoStyle, displayName: string): ModelInfo => ({
  id: `demo:${name}`,
  provider: "demo",
  name,
  displayName,
  priceIn: 0,
  priceOut: 0,
  contextTokens: null,
  demo: true,
});

export const DEMO_MODELS: ModelInfo[] = [
  demoModel("concise", "Demo · Concise"),
  demoModel("thorough", "Demo · Thorough"),
  demoModel("skeptic", "Demo · Skeptic"),
];

export function styleOf(model: string): DemoStyle {
  const found = DEMO_MODELS.find((m) => m.name === model);
  const names = DEMO_MODELS.map((m) => m.name).join(", ");
  if (!found)
    throw new ProviderError("not_found", `There is no demo model "${model}"; choose one of ${names}.`, { status: 404 });
  return found.name as DemoStyle;
}
