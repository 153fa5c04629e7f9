// Each demo's latency through the real app, database (SQLite) and sidecar (one worker), first run
// and cached repeat (prints, never asserts): /UserImgclassification (IG on Fashion-MNIST),
// /UserImgsegmentation (segment, then explain a part), /scenes (IG on a generated scene), and
// /imagenet, /coco when this server has their pictures and a model (IMAGENET_DIR / COCO_DIR and an
// imported model; otherwise the page's "not installed" answer is timed). A latency is the POST
// plus the page it redirects to, median over the pictures.
// Run: npx tsx bench/demos.ts [--pictures N]
import { parseArgs } from "node:util";
import { startStack } from "../tests/support/stack.ts";
import { userClient } from "../tests/support/accounts.ts";
import { location, type Client } from "../tests/support/client.ts";

const { values } = parseArgs({ options: { pictures: { type: "string", default: "4" } } });
const pictures = Math.max(1, Number(values.pictures) || 4);
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN);
const ids = (html: string) => [...html.matchAll(/data-picture-id="(\d+)"/g)].map((m) => m[1]);

/** POST, then the page it redirects to; the elapsed milliseconds and that page. */
async function timed(c: Client, url: string, body: Record<string, string>): Promise<{ ms: number; page: string }> {
  const t0 = performance.now();
  const res = await c.post(url, body);
  const to = location(res);
  if (!to) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  const page = await c.html(to);
  return { ms: performance.now() - t0, page };
}

const rows: string[] = [];
const report = (name: string, first: number[], cached: number[]) =>
  rows.push(`${name.padEnd(24)} first median ${median(first).toFixed(0)} ms, cached median ${median(cached).toFixed(0)} ms (${first.length} pictures)`);

const stack = await startStack({
  db: "sqlite",
  env: { SEED_SEG_SCENES_PICTURES: "8", SEED_FASHION_MNIST_PICTURES: "16", SEED_SCENES_PICTURES: "24" },
});
try {
  const user = await userClient(stack.baseUrl, "bench");
  const firstModel = (page: string) => page.match(/<select id="model"[\s\S]*?<option value="([^"]+)">/)?.[1];

  // Image classification: a Fashion-MNIST picture, the ResNet, IG.
  {
    const step1 = await user.html("/UserImgclassification?type=name&q=fashion");
    const dataset = step1.match(/data-dataset-id="(\d+)"/)![1];
    const page = await user.html(`/UserImgclassification?dataset=${dataset}`);
    const model = firstModel(page);
    const [first, cached]: number[][] = [[], []];
    if (model)
      for (const picture of ids(page).slice(0, pictures)) {
        const url = `/UserImgclassification?dataset=${dataset}&picture=${picture}`;
        first.push((await timed(user, url, { intent: "run", model, algorithm: "IG", picture })).ms);
        cached.push((await timed(user, url, { intent: "run", model, algorithm: "IG", picture })).ms);
      }
    report(`classification (${model ?? "no model"})`, first, cached);
  }

  // Segmentation: segment, then explain the first predicted part with Feature_Ablation.
  {
    const step1 = await user.html("/UserImgsegmentation?type=name&q=Segmentation+scenes");
    const dataset = step1.match(/data-dataset-id="(\d+)"/)![1];
    const page = await user.html(`/UserImgsegmentation?dataset=${dataset}`);
    const model = firstModel(page);
    const seg: number[][] = [[], []];
    const explain: number[][] = [[], []];
    if (model)
      for (const picture of ids(page).slice(0, pictures)) {
        const url = `/UserImgsegmentation?dataset=${dataset}&picture=${picture}`;
        const body = { intent: "segment", model, algorithm: "Feature_Ablation", picture };
        for (const round of [0, 1]) {
          const s = await timed(user, url, body);
          seg[round].push(s.ms);
          const part = s.page.match(/<select id="part"[\s\S]*?<option value="(\d+)">/)?.[1];
          if (part) explain[round].push((await timed(user, url, { ...body, intent: "explain", part })).ms);
        }
      }
    report("segmentation: segment", seg[0], seg[1]);
    report("segmentation: explain", explain[0], explain[1]);
  }

  // The per-dataset pages: the pool, the first of the page's models, IG.
  for (const route of ["/scenes", "/imagenet", "/coco"]) {
    const t0 = performance.now();
    const page = await user.html(route);
    if (page.includes('data-testid="not-installed"')) {
      rows.push(`${route.padEnd(24)} not installed on this server: the page answers in ${(performance.now() - t0).toFixed(0)} ms`);
      continue;
    }
    const model = firstModel(page);
    const [first, cached]: number[][] = [[], []];
    if (model)
      for (const picture of ids(page).slice(0, pictures)) {
        const url = `${route}?pool=1&picture=${picture}`;
        first.push((await timed(user, url, { intent: "run", model, algorithm: "IG", picture })).ms);
        cached.push((await timed(user, url, { intent: "run", model, algorithm: "IG", picture })).ms);
      }
    report(`${route} (${model ?? "no model"})`, first, cached);
  }
  console.log(`Demo latency (SQLite, one sidecar worker; POST + the page it redirects to):\n${rows.join("\n")}`);
} finally {
  await stack.stop();
}
