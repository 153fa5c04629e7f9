// react-vis 1.12 declares React 16 only; the app runs it on React 18 (npm overrides). This
// renders the server detail charts on the server with React 18, as the no-JS page does.
import React from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CHARTS, ServerCharts, hoursMinutes, type ChartPoint } from "../../app/components/ServerCharts.tsx";

const base = Date.UTC(2026, 10, 21, 9, 0, 0);
const points: ChartPoint[] = Array.from({ length: 12 }, (_, i) => ({
  t: base + i * 60_000,
  memoryMiB: 40_000 + i * 100,
  utilization: 80 + (i % 3),
  fan: i === 4 ? null : 45,
  temperature: 66,
  perf: 0,
  power: 280.5,
}));

describe("server charts on the server", () => {
  it("runs on React 18", () => {
    expect(React.version.startsWith("18.")).toBe(true);
  });

  it("renders six react-vis charts with an hours:minutes time axis", () => {
    const html = renderToString(<ServerCharts points={points} utcOffsetMinutes={0} />);
    for (const c of CHARTS) expect(html).toContain(`data-testid="chart-${c.key}"`);
    // Six plots, each an SVG with a line path.
    expect(html.match(/class="rv-xy-plot"/g)?.length).toBe(6);
    expect(html.match(/<svg/g)?.length).toBe(6);
    expect(html.match(/rv-xy-plot__series--line/g)?.length).toBe(6);
    // The time axis reads hours:minutes (09:00 … 09:11 UTC).
    expect(html).toMatch(/>09:0\d</);
    // Performance state ticks are P-states; the latest values are printed beside the titles.
    expect(html).toContain(">P0<");
    expect(html).toContain("41100 MiB");
    expect(html).toContain("280.5 W");
  });

  it("leaves unknown values as gaps and says unknown where nothing is known", () => {
    const html = renderToString(<ServerCharts points={points.map((p) => ({ ...p, fan: null }))} utcOffsetMinutes={0} />);
    expect(html).toMatch(/data-testid="chart-fan" data-points="0"/);
    expect(html.match(/<svg/g)?.length).toBe(5);
    expect(html).toMatch(/data-testid="latest-fan"[^>]*>unknown</);
  });

  it("formats times in the offset it is given", () => {
    expect(hoursMinutes(base, 0)).toBe("09:00");
    expect(hoursMinutes(base, 480)).toBe("17:00");
    expect(hoursMinutes(base + 5 * 60_000, -90)).toBe("07:35");
  });
});
