import { describe, expect, it } from "vitest";
import { retryAllLabel } from "../../web/src/lib/format";

describe("the run page's retry-all button", () => {
  it("says what it does: a cancelled answer was stopped, not failed", () => {
    const answers = (...statuses: string[]) => statuses.map((status) => ({ status }));
    expect(retryAllLabel(answers("failed", "failed", "done"))).toBe("Retry all failed answers");
    expect(retryAllLabel(answers("cancelled", "cancelled", "done"))).toBe("Ask the cancelled models again");
    expect(retryAllLabel(answers("failed", "cancelled"))).toBe("Retry failed and cancelled answers");
  });
});
