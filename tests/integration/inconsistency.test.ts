// The leaderboard's inconsistency views on the default board (the platform's own baselines):
// rendered on the server, with downloads whose numbers agree with the page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";

const SUITE_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local/suite.json"), "utf8")) as {
  tasks: string[];
  evaluation: { images: number; methods: unknown[]; checkpoints: Record<string, string> };
};
const CASES = SUITE_JSON.tasks.length * 2;
const METHODS = SUITE_JSON.evaluation.methods.length;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe(`inconsistency views on ${process.env.TEST_DB}`, () => {
  it("the leaderboard shows the rank heatmap, τ matrix and spread without JavaScript", async () => {
    const html = await new Client(stack.baseUrl).html("/leaderboard?suite=metarank-local");
    expect(html).toContain('data-testid="rank-heatmap"');
    expect(html).toContain('data-testid="agreement-matrix"');
    expect(html).toContain('data-testid="rank-spread"');
    expect(html).toMatch(new RegExp(`Mean Kendall(&#x27;|')s τ between the rankings of every pair of the ${CASES} cases: -?\\d\\.\\d{3}`));
  });

  it("says which data and network each task is, with the held-out accuracy from the task's checkpoint", async () => {
    const html = await new Client(stack.baseUrl).html("/leaderboard?suite=metarank-local");
    const table = html.slice(html.indexOf('data-testid="task-models"'), html.indexOf("</details>", html.indexOf('data-testid="task-models"')));
    expect(table).toContain(`first ${SUITE_JSON.evaluation.images} test images`);
    for (const task of SUITE_JSON.tasks) {
      const id = SUITE_JSON.evaluation.checkpoints[task];
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "sidecar/zoo/checkpoints", `${id}.json`), "utf8")) as {
        testAccuracy: number;
        testSize: number;
      };
      const row = table.slice(table.indexOf(`<code>${task}</code>`));
      expect(row.slice(0, row.indexOf("</tr>"))).toContain(`<code>${id}</code>`);
      expect(row.slice(0, row.indexOf("</tr>"))).toContain(`${(manifest.testAccuracy * 100).toFixed(2)} % (${manifest.testSize} images`);
    }
  });

  it("the downloads have every method and case, and the JSON's τ matrix is symmetric with 1 on the diagonal", async () => {
    const c = new Client(stack.baseUrl);
    const ranks = await (await c.get("/leaderboard/inconsistency?suite=metarank-local&table=ranks&format=csv")).text();
    const lines = ranks.trim().split("\n");
    expect(lines[0].split(",")).toHaveLength(1 + CASES);
    expect(lines).toHaveLength(1 + METHODS);
    const json = await (await c.get("/leaderboard/inconsistency?suite=metarank-local&format=json")).json();
    expect(json.cases).toHaveLength(CASES);
    for (let a = 0; a < CASES; a++) {
      expect(json.tau[a][a]).toBe(1);
      for (let b = 0; b < CASES; b++) expect(json.tau[a][b]).toBeCloseTo(json.tau[b][a], 12);
    }
    // Every method's ranks lie between 1 and the board size; its spread matches its row.
    json.methods.forEach((m: string, i: number) => {
      const row: number[] = json.ranks[i];
      const spread = json.spread.find((s: { method: string }) => s.method === m);
      expect(Math.min(...row)).toBe(spread.best);
      expect(Math.max(...row)).toBe(spread.worst);
      expect(row.every((r) => r >= 1 && r <= METHODS)).toBe(true);
    });
    const html = await c.html("/leaderboard?suite=metarank-local");
    expect(html).toContain(json.meanTau.toFixed(3));
  });

  it("each method's MoRF and LeRF curves for the chosen task are drawn, and the download holds the suite's own numbers", async () => {
    const c = new Client(stack.baseUrl);
    const suiteDir = path.join(ROOT, "seeds/suites/metarank-local");
    const tasks: string[] = JSON.parse(fs.readFileSync(path.join(suiteDir, "suite.json"), "utf8")).tasks;
    const task = tasks[4];
    const html = await c.html(`/leaderboard?suite=metarank-local&curvesTask=${task}`);
    const charts = html.match(/data-testid="curve-chart"/g) ?? [];
    expect(charts).toHaveLength(METHODS);
    // Each chart is an SVG of its own (app/routes/board/plot.ts), lazy, with its
    // numbers in the alt text; two shaded areas and two lines, drawn on the server by react-vis.
    const images = [...html.matchAll(/<img src="(\/leaderboard\/plots\/curve\.svg\?[^"]+)"[^>]*loading="lazy"[^>]*alt="([^"]+)"/g)];
    expect(images).toHaveLength(METHODS);
    expect(images[0][2]).toMatch(/MoRF area \d\.\d{3}, LeRF area \d\.\d{3}/);
    const svg = await c.get(images[0][1].replaceAll("&amp;", "&"));
    expect(svg.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get("etag")).toMatch(/^W\//);
    expect(((await svg.text()).match(/rv-xy-plot__series--line/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(html).toMatch(new RegExp(`<option value="${task}" selected=""`));
    const json = await (await c.get(`/leaderboard/inconsistency?suite=metarank-local&table=curves&task=${task}&format=json`)).json();
    expect(json.task).toBe(task);
    expect(json.methods).toHaveLength(METHODS);
    const saliency = json.methods.find((m: { method: string }) => m.method === "Saliency");
    const row = (file: string) =>
      fs
        .readFileSync(path.join(suiteDir, "saliency", file), "utf8")
        .split("\n")
        .find((l) => l.startsWith(`${task},`))!
        .split(",")
        .slice(1)
        .map(Number);
    expect(saliency.morf).toEqual(row("morf.csv"));
    expect(saliency.lerf).toEqual(row("lerf.csv"));
    const csv = await (await c.get(`/leaderboard/inconsistency?suite=metarank-local&table=curves&task=${task}&format=csv`)).text();
    expect(csv.trim().split("\n")).toHaveLength(1 + 2 * METHODS);
    // An unknown task: the page falls back to the first task, the download is a 404.
    expect(await c.html("/leaderboard?suite=metarank-local&curvesTask=nope")).toMatch(new RegExp(`<option value="${tasks[0]}" selected=""`));
    expect((await c.get("/leaderboard/inconsistency?suite=metarank-local&table=curves&task=nope&format=csv")).status).toBe(404);
  });

  it("a suite without methods has no views and its download is a 404", async () => {
    const c = new Client(stack.baseUrl);
    expect(await c.html("/leaderboard?suite=metarank-seed")).not.toContain('data-testid="rank-heatmap"');
    expect((await c.get("/leaderboard/inconsistency?suite=metarank-seed&format=json")).status).toBe(404);
  });
});
