// Public pages rendered by the real app: landing (its board sentence counted from the suite, its
// links, the footer's configured team and contact), tutorial with its script generator, documentation.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { ADMIN, ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";
import { DEMO_PAGES } from "../../app/lib/navigation.ts";
import { routeUrls } from "../support/routes.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
  // An approved self-reported submission on the default board, written straight into the
  // database before any page is rendered (so no page cache holds the board without it): the
  // home page's count of the platform's own baselines must not include it.
  const db = createSequelize(stack.dbUrl);
  try {
    const now = new Date();
    const [[admin]] = (await db.query("SELECT id FROM users WHERE username = ?", { replacements: [ADMIN.username] })) as [{ id: number }[], unknown];
    await db.query(
      "INSERT INTO submissions (user_id, suite_id, algorithm, status, metascore, ranking, scores_json, morf_file, morf_name, lerf_file, lerf_name, email, info, provenance, created_at, updated_at) VALUES (?, 'metarank-local', 'Self-CAM', 'Approved', 0, 1, '[]', 'x', 'morf.csv', 'x', 'lerf.csv', 'me@example.org', '', 'self-reported', ?, ?)",
      { replacements: [admin.id, now, now] },
    );
    const [[submission]] = (await db.query("SELECT id FROM submissions WHERE algorithm = 'Self-CAM'")) as [{ id: number }[], unknown];
    await db.query(
      "INSERT INTO board_methods (suite_id, source_key, submission_id, contributor, institute, algorithm, scores_json, metascore, morf_metascore, lerf_metascore, provenance, created_at, updated_at) VALUES ('metarank-local', NULL, ?, 'someone', 'somewhere', 'Self-CAM', '[]', 0, 0, 0, 'self-reported', ?, ?)",
      { replacements: [submission.id, now, now] },
    );
  } finally {
    await db.close();
  }
});
afterAll(async () => {
  await stack?.stop();
});

describe(`public pages on ${process.env.TEST_DB}`, () => {
  it("/ goes to /homepage; the Paper button answers with the original site's notice", async () => {
    const c = new Client(stack.baseUrl);
    expect(location(await c.get("/"))).toBe("/homepage");
    const home = await c.html("/homepage");
    expect(home).toContain('href="/Algorithm"');
    expect(home).not.toContain("The paper has not been published yet");
    expect(await c.html("/homepage?paper=1")).toContain("The paper has not been published yet");
    // The sentence about the board says what this server's board covers, counted from the suite
    // (seeds/suites/metarank-local: its tasks are <dataset>_<model>, its baselines the methods;
    // the approved submission written in beforeAll is not one of them).
    const suite = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local/suite.json"), "utf8")) as {
      tasks: string[];
      evaluation: { methods: unknown[] };
    };
    const datasets = new Set(suite.tasks.map((t) => t.split("_")[0])).size;
    const models = new Set(suite.tasks.map((t) => t.split("_").slice(1).join("_"))).size;
    const coverage = home
      .slice(home.indexOf('data-testid="board-coverage"'), home.indexOf("</p>", home.indexOf('data-testid="board-coverage"')))
      .replace(/<!-- -->/g, "");
    expect(coverage).toContain(
      `${datasets} datasets, ${models} models, two masking orders and ${suite.evaluation.methods.length} attribution methods, with ${suite.tasks.length} tasks (${2 * suite.tasks.length} cases) per method`,
    );
    expect(coverage).toContain("marked self-reported");
    // … while the approved submission is on that board.
    expect(await c.html("/leaderboard?suite=metarank-local")).toContain("Self-CAM");
    // "Try the demos" and "read the docs" are links.
    expect(home).toMatch(/<a [^>]*href="\/demos"/);
    expect(home).toMatch(/<a [^>]*href="\/document"/);
    // The footer says who runs the server; with no contact configured it names none (no "not set" line).
    expect(home).toContain("Meta-Rank is developed by the Meta-Rank open-source contributors.");
    expect(home).not.toContain("Maintenance contact");
    expect(home).not.toContain("SITE_CONTACT");
    // In Chinese, the defaults are Chinese too (they were English on every Chinese page).
    const zh = new Client(stack.baseUrl);
    expect((await zh.post("/language", { lng: "zh", redirectTo: "/homepage" })).status).toBe(302);
    const homeZh = await zh.html("/homepage");
    expect(homeZh).toContain("Meta-Rank 由 Meta-Rank 开源贡献者 开发。");
    expect(homeZh).not.toContain("维护联系方式");
    expect(homeZh).not.toContain("open-source contributors");
    // Both faces of the interface font are preloaded on Chinese pages (headings are bold).
    for (const weight of [400, 700]) expect(homeZh).toMatch(new RegExp(`<link rel="preload" as="font"[^>]*noto-sans-sc-ui-${weight}-`));
  });

  it("the script generator needs a task and prints runnable commands of the chosen suite's tasks, each writing its own files", async () => {
    const c = new Client(stack.baseUrl);
    expect(await c.html("/Algorithm?generate=1&suite=metarank-local")).toContain("Please select at least one task!!");
    // The suite's own settings, explained where the method is (patch size 2, filler 0 0 0), and the metascore's scale.
    const explained = (await c.html("/Algorithm?suite=metarank-local")).replace(/<!-- -->/g, "");
    expect(explained).toMatch(/data-testid="how-settings"[^>]*>[^]*?with 2, the image is cut into 2×2 squares[^]*?\(0 0 0 here\)/);
    expect(explained).toContain("so 0 is its average");
    const html = await c.html("/Algorithm?generate=1&suite=metarank-local&method=Saliency&task=scenes_vgg&task=fashionmnist_resnet");
    const script = html.slice(html.indexOf('data-testid="generated-script"'));
    expect(script).toContain("npm run -s evaluate -- --suite metarank-local --method Saliency --task fashionmnist_resnet --out results/fashionmnist_resnet");
    expect(script).toContain("--task scenes_vgg --out results/scenes_vgg");
    expect(script).not.toContain("--task scenes_inception");
    expect(script).toContain("npm run -s evaluate -- --suite metarank-local --method Saliency --out results/all");
    // A task of another suite, or a method name that is not one, is not put into a command.
    const odd = await c.html("/Algorithm?generate=1&suite=metarank-local&method=rm%20-rf&task=food_vgg19&task=scenes_vgg");
    expect(odd).not.toContain("food_vgg19 --out");
    expect(odd).not.toContain("rm -rf");
    // A method module (the tutorial's path 2) gets --method-module, and its maps.zip is what to upload.
    const own = await c.html("/Algorithm?generate=1&suite=metarank-local&method=docs/examples/edgeMethod.ts&task=scenes_vgg");
    expect(own).toContain(
      "npm run -s evaluate -- --suite metarank-local --method-module docs/examples/edgeMethod.ts --task scenes_vgg --out results/scenes_vgg",
    );
    expect(own).toContain("Upload results/all/maps.zip");
    expect(await c.html("/Algorithm?generate=1&suite=metarank-local&method=../../etc/x.ts&task=scenes_vgg")).not.toContain("etc/x.ts --task");
    // The kit link, the maps script over the suite's own tasks.
    const tutorial = await c.html("/Algorithm?suite=metarank-local");
    expect(tutorial).toContain('href="/suites/metarank-local/kit.zip"');
    expect(tutorial).toContain("TASKS = [&quot;fashionmnist_resnet&quot;");
    // The sample result is the suite's real board, and the settings are the suite's.
    const page = await c.html("/Algorithm?suite=metarank-local");
    expect(page).toMatch(/data-testid="sample-result"/);
    expect(page).toContain("patch size 2");
    // The metarank-seed suite says its data is not on this server.
    expect(await c.html("/Algorithm?suite=metarank-seed")).toContain("are not on this server");
  });

  it("the tutorial's submit button: log in first, or go to /cifar", async () => {
    const anon = new Client(stack.baseUrl);
    const warned = await anon.html("/Algorithm?submit=1");
    expect(warned).toContain("Please log in first.");
    // With a way to do so that comes back to the same button.
    expect(warned).toContain('href="/signin?redirectTo=%2FAlgorithm%3Fsubmit%3D1"');
    expect(await anon.html("/signin?redirectTo=%2FAlgorithm%3Fsubmit%3D1")).toContain('name="redirectTo" value="/Algorithm?submit=1"');
    const user = await userClient(stack.baseUrl, "tutorial-reader");
    expect(location(await user.get("/Algorithm?submit=1"))).toBe("/cifar");
  });

  it("the documentation has five sections and a playable video", async () => {
    const c = new Client(stack.baseUrl);
    const html = await c.html("/document");
    for (const id of ["concepts", "datasets", "algorithms", "workflow", "users"]) expect(html).toContain(`href="#${id}"`);
    const src = html.match(/<source src="([^"]+)" type="video\/webm"/)?.[1];
    expect(src).toBe("/doc/intro.webm");
    const video = await c.get(src!);
    expect(video.status).toBe(200);
    const bytes = new Uint8Array(await video.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]); // EBML magic: a real WebM file
    // Captions in both languages, cue for cue.
    const cues = async (lang: string) => {
      expect(html).toContain(`src="/doc/intro.${lang}.vtt"`);
      const vtt = await (await c.get(`/doc/intro.${lang}.vtt`)).text();
      expect(vtt.startsWith("WEBVTT")).toBe(true);
      return vtt.match(/-->/g)?.length ?? 0;
    };
    const english = await cues("en");
    expect(english).toBeGreaterThan(3);
    expect(await cues("zh")).toBe(english);
  });

  /** A page's answer after its own redirects (a demo may add its default tab to the address). */
  async function finalStatus(c: Client, to: string): Promise<number> {
    let res = await c.get(to);
    for (let hops = 0; hops < 3 && res.status >= 300 && res.status < 400; hops++) res = await c.get(location(res)!);
    return res.status;
  }

  it("the homepage, /demos and the DEMOS menu name exactly the demo pages that exist, in both languages", async () => {
    const demoPaths = DEMO_PAGES.map((d) => d.to);
    expect(demoPaths.length).toBeGreaterThanOrEqual(5);
    const c = new Client(stack.baseUrl);
    for (const to of demoPaths) {
      expect(
        routeUrls().some((r) => r.url === to),
        to,
      ).toBe(true);
      expect(await finalStatus(c, to), to).toBe(200);
    }
    const text = (html: string) =>
      html
        .replace(/<[^>]+>/g, "")
        .replace(/<!-- -->/g, "")
        .replace(/&amp;/g, "&")
        .trim();
    /** The page's own content: between the top bar and the footer. */
    const content = (html: string) => html.slice(html.indexOf("</header>"), html.lastIndexOf("<footer"));
    const hrefs = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => ({ to: m[1], name: text(m[2]) }));
    for (const lng of ["en", "zh"]) {
      const v = new Client(stack.baseUrl);
      expect((await v.post("/language", { lng, redirectTo: "/demos" })).status).toBe(302);
      const demos = await v.html("/demos");
      // The DEMOS group of the top menu: /demos, then one link per demo page.
      const group = demos.match(/<details class="topnav-group">(?:(?!<\/details>)[\s\S])*?href="\/demos"[\s\S]*?<\/details>/)?.[0] ?? "";
      const menu = hrefs(group).filter((l) => l.to !== "/demos");
      expect(
        menu.map((l) => l.to),
        lng,
      ).toEqual(demoPaths);
      // The /demos page: one card per demo page, titled as the menu names it.
      const cards = [...content(demos).matchAll(/<article class="card"><h2>([\s\S]*?)<\/h2>[\s\S]*?href="([^"]+)"/g)].map((m) => ({
        to: m[2],
        name: text(m[1]),
      }));
      expect(cards, lng).toEqual(menu);
      // The homepage sends visitors to /demos, and every link of its content leads to a page.
      const home = content(await v.html("/homepage"));
      const links = hrefs(home).map((l) => l.to);
      expect(links, lng).toContain("/demos");
      for (const to of links.filter((l) => l.startsWith("/"))) expect(await finalStatus(v, to), `${lng} homepage link ${to}`).toBe(200);
    }
  });

  it("unknown pages are a 404 page, not a crash", async () => {
    const res = await new Client(stack.baseUrl).get("/no-such-page");
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("404");
  });
});
