// Prototype-tree training tasks through the real app, database, queue and sidecar
// (docs/tree-service.md "Training tasks and data parallelism"): the create form's validation in its
// order and the refused Chinese remarks; a tiny ProtPTree task on Fashion-MNIST (the advanced
// options the sidecar offers for a quick run) queued, streamed (log, curves, images, stages) and
// completed, its tree then listed by the sidecar's Tree.ListTrees and offered in /cub's model
// select for its owner only; a cancelled task; a task the sidecar fails, with its reason; another
// user's task answered 404 (任务不存在或无权限) and not deletable by them. On the in-process queue with
// SQLite, on bull with a real Redis with MariaDB (TEST_DB).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, alerts, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";
import { presentKey } from "../support/callKey.ts";
import { metarankV1 } from "../../proto/contract.ts";

const TINY = {
  category: "ProtPTree",
  dataset: "fashion-mnist",
  depth: "8",
  iterations: "100",
  protoDim: "128",
  "arg.ProtPTree.train_size": "64",
  "arg.ProtPTree.test_size": "32",
  "arg.ProtPTree.batch_size": "8",
  "arg.ProtPTree.test_every": "50",
};

const taskIdOf = (res: Response) => Number(new URL(location(res)!, "http://x").searchParams.get("created"));

async function stateOf(c: Client, id: number): Promise<string> {
  const html = await c.html(`/task_detail/${id}/basic_task_info`);
  return html.match(/data-task-id="\d+" data-state="(\w+)"/)?.[1] ?? "?";
}

async function waitFor(c: Client, id: number, states: string[], ms: number): Promise<string> {
  const until = Date.now() + ms;
  let s = "";
  while (Date.now() < until) {
    s = await stateOf(c, id);
    if (states.includes(s)) return s;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return s;
}

function listTrees(address: string, username: string): Promise<{ treeId: string; name: string; owner: string }[]> {
  const Tree = metarankV1("metarank/v1/tree.proto").Tree as unknown as grpc.ServiceClientConstructor;
  const client = new Tree(address, grpc.credentials.createInsecure(), { interceptors: [presentKey()] }) as unknown as {
    ListTrees(req: unknown, cb: (err: grpc.ServiceError | null, res: { trees: { treeId: string; name: string; owner: string }[] }) => void): void;
    close(): void;
  };
  return new Promise((resolve, reject) =>
    client.ListTrees({ caller: { username, admin: false } }, (err, res) => {
      client.close();
      if (err) reject(err);
      else resolve(res.trees);
    }),
  );
}

function describeStack(label: string, env: () => Record<string, string>) {
  describe(label, () => {
    let stack: Stack;
    let alice: Client;
    let bob: Client;
    let taskDir: string;
    let treeDir: string;
    const tag = crypto.randomBytes(3).toString("hex");

    beforeAll(async () => {
      taskDir = path.join(ROOT, `var/test/tasks_${process.pid}_${tag}`);
      treeDir = path.join(ROOT, `var/test/trees_${process.pid}_${tag}`);
      stack = await startStack({
        env: { ...env(), TREE_TASK_DIR: taskDir, TREE_DIR: treeDir, QUEUE_BACKOFF_MS: "200", SEED_FASHION_MNIST_PICTURES: "0", SEED_SCENES_PICTURES: "0" },
      });
      alice = await userClient(stack.baseUrl, `alice${tag}`);
      bob = await userClient(stack.baseUrl, `bob${tag}`);
    }, 240_000);

    afterAll(async () => {
      await stack?.stop();
      for (const d of [taskDir, treeDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
    });

    it("is for signed-in users; /task opens create_task with the sidecar's options", async () => {
      const anon = await new Client(stack.baseUrl).get("/task/create_task");
      expect(anon.status).toBe(302);
      expect(location(anon)).toContain("/signin");
      const index = await alice.get("/task");
      expect(location(index)).toBe("/task/create_task");
      const html = await alice.html("/task/create_task");
      expect(html).toContain('<option value="ProtPTree">');
      expect(html).toContain('<option value="fashion-mnist">');
      for (const v of ["8", "9", "10"]) expect(html).toMatch(new RegExp(`name="depth"[\\s\\S]*<option value="${v}">`));
      expect(html).toContain('name="arg.ProtPTree.train_size"');
      expect(html).toContain('name="ddpNum"');
      expect(html).toContain("Chinese is not supported here yet");
    });

    it("checks the fields in the original site's order, refuses Chinese remarks and another category's dataset", async () => {
      const order = [
        ["category", "Please choose the category of task to create"],
        ["name", "Please give your task a name"],
        ["dataset", "Please choose a dataset"],
        ["depth", "Please choose the height of the prototype tree"],
        ["iterations", "Please choose the number of training iterations"],
        ["protoDim", "Please choose the feature dimension of the prototype layer"],
      ] as const;
      const full: Record<string, string> = { ...TINY, name: "order-check" };
      for (let i = 0; i < order.length; i++) {
        const body = Object.fromEntries(
          Object.entries(full).filter(([k]) => !order.slice(0, i + 1).some(([f]) => f === k) || order.slice(0, i).some(([f]) => f === k)),
        );
        const res = await alice.post("/task/create_task", body);
        expect(res.status).toBe(400);
        const page = await res.text();
        // The dialog says the creation failed and, first, the first missing field's message.
        expect(page).toContain("Failed to create the task!");
        expect(page.match(/data-testid="task-dialog"[\s\S]*?<p class="muted">([^<]*)</)?.[1]).toBe(order[i][1]);
        expect(alerts(page)).toContain(order[i][1]);
      }
      const chinese = await alice.post("/task/create_task", { ...full, remarks: "训练一棵树" });
      expect(chinese.status).toBe(400);
      expect(alerts(await chinese.text())).toContain("Chinese is not supported in the remarks yet: please write them in English");
      const wrongSet = await alice.post("/task/create_task", { ...full, category: "SeBoW" });
      expect(alerts(await wrongSet.text())).toContain("Please choose a dataset");
      const bigDdp = await alice.post("/task/create_task", { ...full, ddpTraining: "on", ddpNum: "64" });
      expect(bigDdp.status).toBe(400);
      // In Chinese, the original words (docs/product.md "Training tasks").
      const zh = await alice.request("/task/create_task", {
        method: "POST",
        body: new URLSearchParams({ ...full, category: "" }),
        headers: { "Accept-Language": "zh-CN,zh;q=0.9" },
      });
      const zhPage = await zh.text();
      expect(zhPage).toContain("创建失败任务！");
      expect(alerts(zhPage)).toContain("请选择要创建的任务类别");
    });

    let trained = 0;
    it("trains a tiny task: queued, streamed, completed, and its tree listed for its owner only", async () => {
      const res = await alice.post("/task/create_task", { ...TINY, name: `tiny-${tag}`, remarks: "a tiny run" });
      expect(res.status, await res.clone().text()).toBe(302);
      trained = taskIdOf(res);
      expect(await alice.html(location(res)!)).toContain("Created successfully");
      const list = await alice.html("/task/my_tasks");
      expect(list).toContain(`tiny-${tag}`);
      expect(list).toContain("fashion-mnist");
      const state = await waitFor(alice, trained, ["completed", "failed", "cancelled"], 240_000);
      const info = await alice.html(`/task_detail/${trained}/basic_task_info`);
      expect(state, info.match(/data-testid="task-error"[^>]*>([^<]*)/)?.[1] ?? "").toBe("completed");
      expect(info).toContain(`user:alice${tag}:tiny-${tag}`);
      expect(info).toContain("Training completed");
      expect(info).toMatch(/Tree&#x27;s test accuracy<\/th><td>\d+\.\d\d %/);
      const log = await alice.html(`/task_detail/${trained}/training_log`);
      expect(log).toContain('data-testid="training-log"');
      expect(log).not.toMatch(/data-testid="training-log">--</);
      const curves = await alice.html(`/task_detail/${trained}/vis_scalars`);
      expect(Number(curves.match(/data-testid="training-curves" data-points="(\d+)"/)?.[1])).toBeGreaterThan(0);
      expect(curves).toContain("<svg");
      const stages = await alice.html(`/task_detail/${trained}/vis_stages`);
      for (const s of ["data", "training", "pruning", "projection", "visualisation"]) expect(stages).toContain(`data-stage="${s}"`);
      expect(stages).toMatch(/data-stage="training" data-state="done"/);
      const images = await alice.html(`/task_detail/${trained}/vis_images`);
      const img = images.match(/src="(\/task_detail\/\d+\/image\/\d+)"/)?.[1];
      if (img) {
        const png = await alice.get(img);
        expect(png.headers.get("content-type")).toBe("image/png");
        expect((await bob.get(img)).status).toBe(404);
      }
      const mine = await listTrees(stack.sidecarAddress, `alice${tag}`);
      expect(mine.map((t) => t.treeId)).toContain(`user:alice${tag}:tiny-${tag}`);
      const theirs = await listTrees(stack.sidecarAddress, `bob${tag}`);
      expect(theirs.map((t) => t.treeId)).not.toContain(`user:alice${tag}:tiny-${tag}`);
      // The bird page's model select offers it to its owner (trained on the platform's data, so
      // it is listed beside the platform's Fashion-MNIST trees), and to nobody else.
      const treeId = `user:alice${tag}:tiny-${tag}`;
      expect(await alice.html("/cub")).toContain(`<option value="${treeId}">tiny-${tag} (yours, trained on `);
      expect(await bob.html("/cub")).not.toContain(treeId);
      expect((await bob.get(`/cub?model=${encodeURIComponent(treeId)}`)).status).toBe(404);
      expect((await alice.get(`/cub?model=${encodeURIComponent(treeId)}`)).status).toBe(200);
      // The same name again is refused (one tree per owner and name).
      const again = await alice.post("/task/create_task", { ...TINY, name: `tiny-${tag}` });
      expect(alerts(await again.text())).toContain("You already have a task or tree with this name");
    }, 300_000);

    it("keeps another user's task from them: 404 with the original site's message, and their delete fails", async () => {
      const res = await bob.get(`/task_detail/${trained}/basic_task_info`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("The task does not exist or you have no permission");
      for (const tab of ["training_log", "vis_scalars", "vis_images", "vis_stages"]) expect((await bob.get(`/task_detail/${trained}/${tab}`)).status).toBe(404);
      const del = await bob.post("/task/my_tasks", { intent: "delete", id: String(trained), page: "1", confirmed: "1" });
      expect(location(del)).toContain("outcome=delete-failed");
      expect(await bob.html(location(del)!)).toContain("Failed to delete");
      expect(await stateOf(alice, trained)).toBe("completed");
    });

    it("cancels a running task, fails one the sidecar refuses with its reason, and deletes", async () => {
      const long = await alice.post("/task/create_task", {
        ...TINY,
        name: `long-${tag}`,
        iterations: "300",
        "arg.ProtPTree.train_size": "4000",
        "arg.ProtPTree.batch_size": "64",
      });
      expect(long.status).toBe(302);
      const id = taskIdOf(long);
      expect(await waitFor(alice, id, ["running"], 60_000)).toBe("running");
      const cancel = await alice.post("/task/my_tasks", { intent: "cancel", id: String(id), page: "1" });
      expect(location(cancel)).toContain("outcome=cancelled");
      await new Promise((r) => setTimeout(r, 3000));
      expect(await stateOf(alice, id)).toBe("cancelled");
      expect(await alice.html(`/task_detail/${id}/basic_task_info`)).toContain(`Cancelled by alice${tag}`);

      // A backbone trained on other images than the task's dataset: the sidecar refuses, the task says why.
      const html = await alice.html("/task/create_task");
      const other = html.match(/<option value="(resnet-scenes[^"]*)">/)?.[1];
      if (other) {
        const bad = await alice.post("/task/create_task", { ...TINY, name: `bad-${tag}`, "arg.ProtPTree.backbone": other });
        const badId = taskIdOf(bad);
        expect(await waitFor(alice, badId, ["failed", "completed"], 120_000)).toBe("failed");
        const page = await alice.html("/task/my_tasks");
        expect(page).toMatch(new RegExp(`data-task-id="${badId}" data-state="failed"[\\s\\S]*?Failed[\\s\\S]*?data-testid="task-error"[^>]*>[^<]*backbone`));
      }

      // Deleting asks first: a post without the question's own confirmation only asks.
      const ask = await alice.post("/task/my_tasks", { intent: "delete", id: String(id), page: "1" });
      expect(location(ask)).toBe(`/task/my_tasks?page=1&confirm=${id}`);
      const question = await alice.html(location(ask)!);
      expect(question).toContain('data-testid="confirm-delete-step"');
      expect(question).toContain(`Delete the task “long-${tag}”?`);
      expect((await alice.get(`/task_detail/${id}/basic_task_info`)).status).toBe(200);
      const del = await alice.post("/task/my_tasks", { intent: "delete", id: String(id), page: "1", confirmed: "1" });
      expect(location(del)).toContain("outcome=deleted");
      expect(await alice.html(location(del)!)).toContain("Deleted successfully");
      expect((await alice.get(`/task_detail/${id}/basic_task_info`)).status).toBe(404);
      expect(fs.existsSync(path.join(taskDir, String(id)))).toBe(false);
      // The download button only says where the model is taken from.
      expect(await alice.html("/task/my_tasks?outcome=download")).toContain("download the model from the prototype-tree page");
    }, 300_000);
  });
}

const prefix = `metarank_treetasks_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
// One queue per database run, so `make test` covers both queues (and both databases) without
// training every task four times: the in-process queue with SQLite (the embedded default, as
// `make start` runs), bull on the real Redis with MariaDB (as a deployment runs).
if ((process.env.TEST_DB ?? "sqlite") === "sqlite") describeStack("tree tasks (in-process queue, sqlite)", () => ({}));
else describeStack(`tree tasks (bull on Redis, ${process.env.TEST_DB})`, () => ({ REDIS_URL, QUEUE_PREFIX: prefix }));
afterAll(async () => {
  const { default: Redis } = await import("ioredis");
  const r = new Redis(REDIS_URL);
  const keys = await r.keys(`${prefix}:*`);
  if (keys.length) await r.del(...keys);
  await r.quit();
});
