// The bird and car tree pages through the real app, database and sidecar (docs/tree-service.md):
// the required-field messages in order (model, then image), a prediction with its path, the
// tree-edit form path (node → candidate → confirm), the downloads, adjust and save as polled jobs,
// the saved model in the select; and another user's saved model is neither listed nor reachable
// (page, downloads, job) — a 404 like an unknown id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
let alice: Client;
let bob: Client;
let platformTree = "";
let sample = "";
const savedName = `alice-tree-${Date.now() % 100000}`;

const decode = (s: string) =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
const options = (html: string) => [...html.matchAll(/<option[^>]*value="([^"]*)"[^>]*>([^<]*)</g)].map((m) => ({ value: decode(m[1]), label: decode(m[2]) }));
const q = (p: Record<string, string>) => new URLSearchParams(p).toString();

async function waitForJob(c: Client, jobId: string) {
  for (let i = 0; i < 600; i++) {
    const res = await c.get(`/trees/jobs/${jobId}`);
    expect(res.status).toBe(200);
    const job = (await res.json()) as { state: string; done: { oldAccuracy: number; newAccuracy: number; treeId: string } | null; error: string | null };
    if (job.state === "completed" || job.state === "failed") return job;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the job did not finish in 5 minutes");
}

beforeAll(async () => {
  stack = await startStack({ env: { TREE_DIR: `var/test/trees_${process.pid}_${Date.now()}` } });
  alice = await userClient(stack.baseUrl, "tree-alice");
  bob = await userClient(stack.baseUrl, "tree-bob");
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe("/cub", () => {
  it("needs a signed-in user", async () => {
    const res = await new Client(stack.baseUrl).get("/cub");
    expect(res.status).toBe(302);
    expect(location(res)).toMatch(/^\/signin/);
  });

  it("offers the platform tree as cub1, the algorithm none disabled, a pool, and says which data it was trained on", async () => {
    const html = await alice.html("/cub");
    const models = options(html).filter((o) => o.value.startsWith("platform:"));
    expect(models.length).toBeGreaterThan(0);
    expect(models[0].label).toMatch(/^cub1 \(trained on .+, accuracy \d+\.\d%\)$/);
    platformTree = models[0].value;
    expect(html).toMatch(/<option value="none" disabled="">none<\/option>/);
    expect(html).toContain("CUB-200-2011 is not installed on this server");
    const samples = [...html.matchAll(/data-sample="([^"]+)"/g)].map((m) => m[1]);
    expect(samples.length).toBe(12);
    sample = samples[0];
    // A refreshed pool is another sample of the data.
    const again = [...(await alice.html("/cub?seed=2")).matchAll(/data-sample="([^"]+)"/g)].map((m) => m[1]);
    expect(again).not.toEqual(samples);
  });

  it("checks the model first, then the image", async () => {
    let html = await (await alice.post("/cub", { intent: "predict", model: "", sample: "", algorithm: "interpretable" })).text();
    expect(html).toContain("Please choose the model to use");
    html = await (await alice.post("/cub", { intent: "predict", model: platformTree, sample: "", algorithm: "interpretable" })).text();
    expect(html).toContain("Please choose the image to explain");
    expect(html).not.toContain("Please choose the model to use");
  });

  it("predicts with a local explanation: ground truth, prediction, probability, the path with its images", async () => {
    const res = await alice.post(`/cub?seed=1`, { intent: "predict", model: platformTree, sample, algorithm: "interpretable" });
    expect(res.status).toBe(302);
    const to = location(res)!;
    expect(to).toContain("run=1");
    const html = await alice.html(to);
    expect(html).toMatch(/data-testid="ground-truth">[^<]+</);
    expect(html).toMatch(/data-testid="predicted">[^<]+</);
    expect(html).toMatch(/data-testid="probability">\d+\.\d%</);
    const steps = [...html.matchAll(/<li data-node="([^"]+)"/g)];
    expect(steps.length).toBeGreaterThan(0);
    expect(html).toContain("data:image/png;base64,");
    expect(html).toMatch(/Produced by the platform tree .+ \(ProtoTree, depth \d+/);
  });

  it("serves the pruned and full tree as SVG, PDF and the prototypes zip", async () => {
    const id = encodeURIComponent(platformTree);
    const svg = await alice.get(`/trees/${id}/svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toMatch(/image\/svg\+xml/);
    expect(await svg.text()).toContain("<svg");
    const full = await alice.get(`/trees/${id}/svg?full=1`);
    expect(full.status).toBe(200);
    const pdf = await alice.get(`/trees/${id}/pdf?download=1`);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const zip = await alice.get(`/trees/${id}/zip`);
    expect(zip.status).toBe(200);
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe("PK");
    expect((await alice.get(`/trees/${id}/exe`)).status).toBe(404);
  });

  it("changes a node prototype through the form path, adjusts the tree, saves it, and the saved model appears in the select", async () => {
    const base = { model: platformTree, seed: "1", sample, run: "1" };
    const edit = await alice.html(`/cub?${q({ ...base, edit: "1" })}`);
    const node = edit.match(/<li class="ds-tile[^"]*" data-node="([^"]+)"/)![1];
    const picker = await alice.html(`/cub?${q({ ...base, edit: "1", node })}`);
    const candidate = decode(picker.match(/name="candidate" value="([^"]+)"/)![1]);
    // Confirm without a candidate: the message, nothing stored.
    const none = await alice.post(`/cub?${q({ ...base, edit: "1", node })}`, { intent: "replace", model: platformTree, sample, node });
    expect(await none.text()).toContain("Please choose a candidate prototype");
    const replaced = await alice.post(`/cub?${q({ ...base, edit: "1", node })}`, { intent: "replace", model: platformTree, sample, node, candidate });
    expect(replaced.status).toBe(302);
    const after = await alice.html(location(replaced)!);
    expect(after).toContain('data-testid="pending-edits"');
    expect(after).toMatch(/With your 1 pending edit applied\./);

    const adjust = await alice.post(`/cub?${q(base)}`, { intent: "adjust", model: platformTree, sample });
    expect(adjust.status).toBe(302);
    const adjustJob = new URL(location(adjust)!, "http://x").searchParams.get("job")!;
    const adjusted = await waitForJob(alice, adjustJob);
    expect(adjusted.error).toBeNull();
    expect(adjusted.done!.oldAccuracy).toBeGreaterThanOrEqual(0);
    expect(adjusted.done!.newAccuracy).toBeLessThanOrEqual(1);
    expect(await alice.html(location(adjust)!)).toMatch(/Test accuracy: \d+\.\d% → \d+\.\d%/);

    // The name's rule is stated beside the field; a Chinese name gets that rule back from the server.
    expect(decode(await alice.html(`/cub?${q({ ...base, save: "1" })}`))).toContain(
      "Latin letters (a–z, A–Z), digits, '-', '_' and '.'; no spaces or Chinese characters",
    );
    for (const name of ["我的鸟树", "no spaces allowed", ".."]) {
      const badName = await alice.post(`/cub?${q(base)}`, { intent: "save", model: platformTree, sample, name });
      expect(badName.status, name).toBe(400);
      expect(decode(await badName.text()), name).toContain("Please enter a model name of 1 to 64 Latin letters (a–z, A–Z), digits");
    }
    const save = await alice.post(`/cub?${q(base)}`, { intent: "save", model: platformTree, sample, name: savedName });
    expect(save.status).toBe(302);
    const saveJob = new URL(location(save)!, "http://x").searchParams.get("job")!;
    const saved = await waitForJob(alice, saveJob);
    expect(saved.error).toBeNull();
    expect(saved.done!.treeId).toBe(`user:tree-alice:${savedName}`);
    const page = await alice.html("/cub");
    const mine = options(page).find((o) => o.value === `user:tree-alice:${savedName}`);
    expect(mine?.label).toMatch(new RegExp(`^${savedName} \\(yours, trained on `));
    // The edits went into the saved tree; the platform tree's pending list is empty again.
    expect(await alice.html(`/cub?${q({ ...base, edit: "1" })}`)).toContain('data-testid="no-edits"');
    // The saved tree predicts too.
    const own = await alice.html(`/cub?${q({ ...base, model: saved.done!.treeId })}`);
    expect(own).toMatch(/Produced by your saved tree/);

    // Bob: not listed, and every address of it is a 404 like an unknown tree.
    const bobPage = await bob.html("/cub");
    expect(bobPage).not.toContain(savedName);
    expect((await bob.get(`/cub?${q({ ...base, model: saved.done!.treeId })}`)).status).toBe(404);
    expect((await bob.get(`/trees/${encodeURIComponent(saved.done!.treeId)}/svg`)).status).toBe(404);
    expect((await bob.get(`/trees/jobs/${saveJob}`)).status).toBe(404);
    const bobPost = await bob.post("/cub", { intent: "predict", model: saved.done!.treeId, sample, algorithm: "interpretable" });
    expect(await bobPost.text()).toContain("Please choose the model to use");
    expect((await bob.post("/cub", { intent: "adjust", model: saved.done!.treeId, sample })).status).toBe(404);
  }, 600_000);

  it("modify local prediction: shows the modified prediction, accepting stores a favour edit", async () => {
    const base = { model: platformTree, seed: "1", sample, run: "1" };
    await alice.post(`/cub?${q(base)}`, { intent: "clearEdits", model: platformTree, sample });
    const html = await alice.html(`/cub?${q({ ...base, modify: "1" })}`);
    const leaf = html.match(/name="leaf" value="([^"]+)"/)![1];
    const classes = [...html.matchAll(/<select id="favour"[\s\S]*?<\/select>/g)][0][0];
    const values = [...classes.matchAll(/value="(\d+)"/g)].map((m) => m[1]);
    const other = values[values.length - 1];
    const preview = await alice.post(`/cub?${q({ ...base, modify: "1" })}`, { intent: "previewFavour", model: platformTree, sample, leaf, favour: other });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toMatch(/With leaf favouring .+, the tree predicts .+ \(\d+\.\d%\)\./);
    const accept = await alice.post(`/cub?${q({ ...base, modify: "1" })}`, { intent: "favour", model: platformTree, sample, leaf, favour: other });
    expect(accept.status).toBe(302);
    expect(await alice.html(location(accept)!)).toMatch(/With your 1 pending edit applied\./);
    await alice.post(`/cub?${q(base)}`, { intent: "clearEdits", model: platformTree, sample });
  }, 120_000);
});

describe("/cars", () => {
  it("walks the six steps: pool, model and algorithm, result, tree before and after pruning with downloads, local explanation", async () => {
    const html = await alice.html("/cars");
    const model = options(html).find((o) => o.value.startsWith("platform:"))!;
    expect(model.label).toMatch(/^cars1 /);
    expect(html).toContain("Stanford Cars is not installed on this server");
    const first = html.match(/data-sample="([^"]+)"/)![1];
    const res = await alice.post("/cars", { intent: "predict", model: model.value, sample: first, algorithm: "interpretable" });
    const page = await alice.html(location(res)!);
    for (const step of ["Step 3: the result", "Step 4: the tree before pruning", "Step 5: the tree after pruning", "Step 6: the local explanation"])
      expect(page).toContain(step);
    const id = encodeURIComponent(model.value);
    expect(page).toContain(`/trees/${id}/svg?full=1&amp;download=1`);
    expect(page).toContain(`/trees/${id}/zip?download=1`);
    expect(page).toContain(`/trees/${id}/pdf?full=1&amp;download=1`);
  }, 120_000);
});
