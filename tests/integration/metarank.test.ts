// The leaderboard → submission → history → approval flow against the real stack (web app,
// sidecar, database). Runs on SQLite and MariaDB: TEST_DB=sqlite|mariadb npx vitest run tests/integration/metarank.test.ts
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, alerts, location } from "../support/client.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { BASELINES, SEED_SUITE, csvBlob, lerfCsv, morfCsv, resultCsv, suiteFolder } from "./metarankFixtures.ts";

let stack: Stack;
const SUITE = SEED_SUITE.id;

function importBaselines(dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", "seeds/importSuite.ts", dir], { cwd: ROOT, env: stack.env });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`import exited ${code}: ${out}`))));
  });
}

function scoreForm(algorithm: string, morf?: string, lerf?: string) {
  const f = new FormData();
  f.set("intent", "score");
  f.set("suite", SUITE);
  f.set("algorithm", algorithm);
  if (morf !== undefined) f.set("morf", csvBlob(morf), "morf.csv");
  if (lerf !== undefined) f.set("lerf", csvBlob(lerf), "lerf.csv");
  return f;
}

function submitForm(fields: Record<string, string>, python?: { name: string; text: string }) {
  const f = new FormData();
  f.set("intent", "submit");
  f.set("suite", SUITE);
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  if (python) f.set("python", new Blob([python.text], { type: "text/x-python" }), python.name);
  return f;
}

const decode = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/<!-- -->/g, "");

async function scoreAndSubmit(c: Client, algorithm: string, quality: number, python?: { name: string; text: string }) {
  const scored = await c.post(`/submission?suite=${SUITE}`, scoreForm(algorithm, morfCsv(quality), lerfCsv(quality)));
  expect(scored.status, await scored.clone().text()).toBe(302);
  const res = await c.post(`/submission?suite=${SUITE}`, submitForm({ algorithm, email: "me@example.org", info: "Gradients, smoothed." }, python));
  return res;
}

async function latestSubmissionId(admin: Client, algorithm: string): Promise<number> {
  const html = decode(await admin.html("/approval"));
  const row = [...html.matchAll(/submission-(\d+)"[^]*?<\/tr>/g)].find((m) => m[0].includes(`>${algorithm}<`));
  if (!row) throw new Error(`no approval row for ${algorithm}`);
  return Number(row[1]);
}

beforeAll(async () => {
  // Only this variable: the stack supplies every other one (its own database, ports, admin).
  stack = await startStack({ env: { SUBMISSION_DAILY_LIMIT: "3" } as unknown as NodeJS.ProcessEnv });
  await importBaselines(suiteFolder(BASELINES));
});
afterAll(async () => {
  await stack?.stop();
});

describe("leaderboard", () => {
  it("shows the imported baselines of every board, 4 decimals, public", async () => {
    const c = new Client(stack.baseUrl);
    const html = decode(await c.html(`/leaderboard?suite=${SUITE}`));
    expect(html).toContain(SEED_SUITE.name);
    for (const b of BASELINES) expect(html).toContain(b.algorithm);
    expect(html).toMatch(/MoRF-only ranking/);
    expect(html).toMatch(/LeRF-only ranking/);
    expect(html).toMatch(/>-?\d\.\d{4}</);
    // Best quality first on the overall board.
    const overall = html.slice(html.indexOf('data-testid="board-overall"'), html.indexOf('data-testid="board-morf"'));
    expect(overall.indexOf("Grad-CAM")).toBeLessThan(overall.indexOf("Integrated Gradients"));
    expect(overall.indexOf("Integrated Gradients")).toBeLessThan(overall.indexOf("Saliency"));
  });

  it("/cifar goes to /submission, which asks anonymous visitors to log in", async () => {
    const c = new Client(stack.baseUrl);
    expect(location(await c.get("/cifar"))).toBe("/submission");
    const res = await c.get("/submission");
    expect(res.status).toBe(302);
    expect(location(res)).toMatch(/^\/signin\?notice=login-first/);
    expect(await c.html(location(res)!)).toContain("Please log in first.");
  });
});

describe("submission", () => {
  it("reports the original site's messages and every CSV error with line and column", async () => {
    const c = await userClient(stack.baseUrl, "val_user");
    let res = await c.post(`/submission?suite=${SUITE}`, scoreForm(""));
    expect(res.status).toBe(400);
    let html = decode(await res.text());
    expect(alerts(html)).toEqual(
      expect.arrayContaining(["Please input the name of your attribution algorithm!", "Please upload your morf result!", "Please upload your lerf result!"]),
    );

    const broken = resultCsv(0.2).split("\n");
    broken[3] = broken[3].replace(/^([^,]+),([^,]+),([^,]+)/, "$1,$2,abc");
    broken[6] = broken[6].replace(/^[^,]+/, "imagenet_vgg16");
    res = await c.post(`/submission?suite=${SUITE}`, scoreForm("Mine", broken.join("\n"), lerfCsv(0.5)));
    html = decode(await res.text());
    expect(res.status).toBe(400);
    expect(html).toContain('morf.csv:4:3 "abc" is not a number');
    expect(html).toContain('morf.csv:7:1 unknown task "imagenet_vgg16"');
    expect(html).toContain("morf.csv: task food_vgg19 is missing");
    // The same problems on the Chinese page, in Chinese, with the same places and values.
    await c.post("/language", { lng: "zh", redirectTo: "/homepage" });
    const zh = decode(await (await c.post(`/submission?suite=${SUITE}`, scoreForm("Mine", broken.join("\n"), lerfCsv(0.5)))).text());
    expect(zh).toContain('morf.csv:4:3 "abc" 不是数字');
    expect(zh).toContain('morf.csv:7:1 未知任务 "imagenet_vgg16"');
    expect(zh).toContain("morf.csv: 缺少任务 food_vgg19");
    expect(zh).not.toContain("is not a number");
    await c.post("/language", { lng: "en", redirectTo: "/homepage" });
    // The valid LeRF file of that request was kept; the broken MoRF file was not.
    expect(html).toContain("lerf.csv uploaded");
    expect(html).not.toContain("morf.csv uploaded");

    const notCsv = new FormData();
    notCsv.set("intent", "score");
    notCsv.set("suite", SUITE);
    notCsv.set("algorithm", "Mine");
    notCsv.set("morf", new Blob(["x"], { type: "application/pdf" }), "morf.pdf");
    html = decode(await (await c.post(`/submission?suite=${SUITE}`, notCsv)).text());
    expect(alerts(html)).toContain("Please upload a CSV file.");

    const big = scoreForm("Mine", "task," + "0.1,".repeat(200_000), lerfCsv(0.5));
    res = await c.post(`/submission?suite=${SUITE}`, big);
    expect(res.status).toBe(413);
    expect(decode(await res.text())).toContain("Please upload a CSV file with a size less than 500KB.");

    // Submitting needs email and details; a non-.py algorithm file is refused.
    await c.post(`/submission?suite=${SUITE}`, scoreForm("Mine", morfCsv(0.5), lerfCsv(0.5)));
    res = await c.post(`/submission?suite=${SUITE}`, submitForm({ algorithm: "Mine", email: "", info: "" }, { name: "algo.txt", text: "print(1)" }));
    html = decode(await res.text());
    expect(alerts(html)).toEqual(
      expect.arrayContaining(["Please provide your email address!", "Please complete information about your algorithm!", "Please upload a python file."]),
    );
  });

  it("upload → score → submit → history → approve → the board changes", async () => {
    const alice = await userClient(stack.baseUrl, "alice");
    const res = await alice.post(`/submission?suite=${SUITE}`, scoreForm("Alice-CAM", morfCsv(0.95), lerfCsv(0.95)));
    expect(res.status).toBe(302);
    expect(location(res)).toContain("scored=1");
    let html = decode(await alice.html(location(res)!));
    expect(html).toContain("The original Meta-Rank");
    expect(html).toContain("Current Meta-Rank");
    const current = html.slice(html.indexOf('data-testid="board-current"'));
    // The candidate row: the user's name, institute and typed algorithm, first (best quality).
    expect(current).toMatch(/rank-row-candidate[^]*?<td[^>]*>1<\/td><td[^>]*>alice<\/td><td[^>]*>Test University<\/td><td[^>]*>Alice-CAM</);

    const sub = await alice.post(
      `/submission?suite=${SUITE}`,
      submitForm(
        { algorithm: "Alice-CAM", email: "alice@example.org", info: "A CAM variant." },
        { name: "alice_cam.py", text: "def explain(x):\n    return x\n" },
      ),
    );
    expect(sub.status).toBe(302);
    html = decode(await alice.html(location(sub)!));
    expect(html).toContain("Upload algorithm successfully!");
    expect(html).toContain("Your algorithm file will be submitted with your results.");

    html = decode(await alice.html("/history"));
    expect(html).toContain("Alice-CAM");
    expect(html).toMatch(/status-inprocess[^>]*>In Process/);

    const admin = await adminClient(stack.baseUrl);
    const id = await latestSubmissionId(admin, "Alice-CAM");
    expect(decode(await admin.html(`/leaderboard?suite=${SUITE}`))).not.toContain("Alice-CAM");
    // The no-JS confirmation step, then the decision.
    const confirm = decode(await admin.html(`/approval?confirm=${id}&decision=approve`));
    expect(confirm).toContain("irreversible");
    const approved = await admin.post("/approval", { id: String(id), decision: "approve" });
    expect(approved.status).toBe(302);
    expect(decode(await admin.html(location(approved)!))).toContain("You have approved this submission!");

    html = decode(await admin.html(`/leaderboard?suite=${SUITE}`));
    const overall = html.slice(html.indexOf('data-testid="board-overall"'), html.indexOf('data-testid="board-morf"'));
    expect(overall).toContain("Alice-CAM");
    expect(overall.indexOf("Alice-CAM")).toBeLessThan(overall.indexOf("Grad-CAM"));
    const history = decode(await alice.html("/history"));
    expect(history).toMatch(/status-approved[^>]*>Approved/);
    // Honest numbers: history shows the method's metascore as the board shows it now.
    const boardScore = overall.match(/<td>Alice-CAM<\/td><td>([^<]+)<\/td>/)![1];
    expect(history).toMatch(new RegExp(`data-testid="metascore-${id}-now">${boardScore.replace(/[.+-]/g, "\\$&")}<`));
    expect(decode(await admin.html("/approval"))).toMatch(new RegExp(`data-testid="metascore-${id}-now">${boardScore.replace(/[.+-]/g, "\\$&")}<`));
    // … its rank now as the board ranks it, and the score it had at submission beside it.
    const boardRank = overall.match(/<td>(\d+)<\/td><td>[^<]*<\/td><td>[^<]*<\/td><td>Alice-CAM<\/td>/)![1];
    const boardSize = (overall.match(/<td data-source=/g) ?? []).length;
    expect(history).toContain(`data-testid="ranking-${id}-now">${boardRank} of `);
    expect(history).toMatch(
      new RegExp(`data-testid="metascore-${id}"><span[^>]*>[^<]+</span><br/><small class="muted">at submission: -?\\d+\\.\\d{4}</small>`),
    );
    expect(boardSize).toBeGreaterThan(1);
    // The approved method's accuracy curves come from its own result files (read once, then kept on its row).
    for (let round = 0; round < 2; round++) {
      const curves = await (await admin.get(`/leaderboard/inconsistency?suite=${SUITE}&table=curves&task=${SEED_SUITE.tasks[1]}&format=json`)).json();
      const own = curves.methods.find((m: { method: string }) => m.method === "Alice-CAM");
      const row = (csv: string) =>
        csv
          .split("\n")
          .find((l) => l.startsWith(`${SEED_SUITE.tasks[1]},`))!
          .split(",")
          .slice(1)
          .map(Number);
      expect(own.morf).toEqual(row(morfCsv(0.95)));
      expect(own.lerf).toEqual(row(lerfCsv(0.95)));
    }
    expect(html).toMatch(/data-testid="curve-chart" data-method="Alice-CAM"/);
    // Where each row's numbers come from: the approved submission is self-reported, the suite's
    // baselines were computed by the platform.
    expect(overall).toMatch(/<td>Alice-CAM<\/td><td>[^<]+<\/td><td data-source="self-reported"><span[^>]*>self-reported<\/span>/);
    expect(overall).toMatch(/<td>Grad-CAM<\/td><td>[^<]+<\/td><td data-source="platform"><span[^>]*>computed here<\/span>/);

    // Only once.
    const again = await admin.post("/approval", { id: String(id), decision: "reject" });
    expect(again.status).toBe(409);
    expect(decode(await again.text())).toContain("Rejection failed.");

    // Downloads: the owner and admins; nobody else.
    const own = await alice.get(`/files/submission/${id}/morf`);
    expect(own.status).toBe(200);
    expect(await own.text()).toBe(morfCsv(0.95));
    expect((await admin.get(`/files/submission/${id}/python`)).status).toBe(200);
    const mallory = await userClient(stack.baseUrl, "mallory");
    const refused = await mallory.get(`/files/submission/${id}/morf`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe("Only administrators and the submitter can download this file.");
    expect((await mallory.get(`/files/submission/${id}/python`)).status).toBe(403);
    expect(await (await mallory.get(`/files/submission/${id}/lerf-nope`)).text()).toBe("There is nothing at this address.");
    // Non-admins cannot decide or see approvals.
    expect((await mallory.post("/approval", { id: String(id), decision: "approve" })).status).toBe(403);
    expect((await mallory.get("/approval")).status).toBe(403);
    expect((await mallory.get("/user")).status).toBe(403);
    // Admin contributor ranking.
    const ranking = decode(await admin.html(`/user?suite=${SUITE}&sort=contributor&dir=asc`));
    expect(ranking).toContain("alice");
    expect(ranking.indexOf(">alice<")).toBeLessThan(ranking.indexOf("Selvaraju et al."));
  });

  it("reject; a submission without a .py says so; another user's history is not shown", async () => {
    const bob = await userClient(stack.baseUrl, "bob");
    const res = await scoreAndSubmit(bob, "Bob-Grad", 0.1);
    expect(res.status).toBe(302);
    expect(decode(await bob.html(location(res)!))).toContain("You choose not to submit your algorithm file.");
    const admin = await adminClient(stack.baseUrl);
    const id = await latestSubmissionId(admin, "Bob-Grad");
    const html = decode(await admin.html("/approval"));
    expect(html).toMatch(new RegExp(`details-${id}[^]*?Algorithm file[^]*?Not Provided`));
    // A reason goes with a rejection only, and is bounded; a refused one leaves the question open
    // (the form posts with the page's query) with what was typed and the field's message.
    const question = `/approval?confirm=${id}&decision=reject`;
    const tooLong = await admin.post(question, { id: String(id), decision: "reject", note: "x".repeat(1001) });
    expect(tooLong.status).toBe(400);
    const refusedPage = decode(await tooLong.text());
    expect(refusedPage).toContain("At most 1000 characters, please.");
    expect(refusedPage).toMatch(/<textarea[^>]*name="note"[^>]*>x{1001}<\/textarea>/);
    const onApproval = await admin.post("/approval", { id: String(id), decision: "approve", note: "well done" });
    expect(onApproval.status).toBe(400);
    expect(decode(await onApproval.text())).toContain("A reason can be given with a rejection only.");
    expect(decode(await bob.html("/history"))).toMatch(/status-inprocess[^>]*>In Process/);
    const reason = "The LeRF file repeats the MoRF curve.\nPlease re-run <both> orders.";
    const rejected = await admin.post(question, { id: String(id), decision: "reject", note: `  ${reason}  ` });
    expect(rejected.status).toBe(302);
    expect(decode(await admin.html(location(rejected)!))).toContain("You have rejected this submission!");
    // The submitter reads the reason under the status, as typed (escaped, line break kept).
    const bobHistory = decode(await bob.html("/history")).replace(/<!-- -->/g, "");
    expect(bobHistory).toMatch(/status-rejected[^>]*>Rejected/);
    expect(bobHistory).toContain(`Reason: ${reason.replace("<both>", "&lt;both&gt;")}`);
    const zh = decode(await (await bob.request("/history", { headers: { "Accept-Language": "zh-CN" } })).text()).replace(/<!-- -->/g, "");
    expect(zh).toContain(`理由：${reason.replace("<both>", "&lt;both&gt;")}`);
    expect(decode(await admin.html(`/leaderboard?suite=${SUITE}`))).not.toContain("Bob-Grad");
    expect(decode(await bob.html("/history"))).not.toContain("Alice-CAM");
  });

  it("two admins approving at the same moment: exactly one succeeds and the board gains one row", async () => {
    const carol = await userClient(stack.baseUrl, "carol");
    expect((await scoreAndSubmit(carol, "Carol-Race", 0.6)).status).toBe(302);
    const [a1, a2] = [await adminClient(stack.baseUrl), await adminClient(stack.baseUrl)];
    const id = await latestSubmissionId(a1, "Carol-Race");
    const results = await Promise.all([
      a1.post("/approval", { id: String(id), decision: "approve" }),
      a2.post("/approval", { id: String(id), decision: "approve" }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    // On a failure the web app's log says what the losing request hit.
    expect(statuses, stack.logs().slice(-4000)).toEqual([302, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(decode(await loser.text())).toContain("Approval failed.");
    const board = decode(await a1.html(`/leaderboard?suite=${SUITE}`));
    expect(board.split("<td>Carol-Race</td>").length - 1).toBe(3); // once on each of the three rank tables
  });

  it("a daily submission limit with a clear message", async () => {
    const dave = await userClient(stack.baseUrl, "dave");
    // Shown before the form is filled.
    expect(decode(await dave.html(`/submission?suite=${SUITE}`))).toContain("You can submit 3 more algorithm(s) in the next 24 hours (at most 3 a day).");
    for (let i = 0; i < 3; i++) expect((await scoreAndSubmit(dave, `Dave-${i}`, 0.3)).status).toBe(302);
    expect(decode(await dave.html(`/submission?suite=${SUITE}`))).toContain("You have used today's 3 submissions");
    const res = await scoreAndSubmit(dave, "Dave-3", 0.3);
    expect(res.status).toBe(409);
    expect(decode(await res.text())).toContain("You can submit at most 3 algorithms in 24 hours.");
    // The scored files are still there: nothing uploaded was lost.
    expect(decode(await dave.html(`/submission?suite=${SUITE}`))).toContain("morf.csv uploaded");
  });
});
