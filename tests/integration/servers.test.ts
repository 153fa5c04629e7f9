// Compute servers end to end: the real app on a fresh database, real sidecar processes with
// a fake nvidia-smi heartbeating to it. Registration → online, stop → offline after the
// (shortened) threshold, back online; telemetry on the detail page; admin-only everywhere.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, freePort, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { adminClient, userClient } from "../support/accounts.ts";

const THRESHOLD_MS = 3000;
const FAKE_SMI_DIR = path.join(ROOT, "tests/fixtures/nvidia-smi/bin");
let stack: Stack;
let admin: Client;
let adminZh: Client;
let user: Client;
const anon = () => new Client(stack.baseUrl);

interface Sidecar {
  proc: ChildProcess;
  log: () => string;
  stop(): Promise<void>;
}

/** A second sidecar process, as an ops person would start one on a GPU host. */
function startSidecar(port: number, name: string, password: string): Sidecar {
  const env: NodeJS.ProcessEnv = {
    ...stack.env,
    PATH: `${FAKE_SMI_DIR}${path.delimiter}${process.env.PATH}`,
    FAKE_NVIDIA_SMI_SCENARIO: "multi-gpu",
    SIDECAR_PORT: String(port),
    SIDECAR_HOST: "127.0.0.1",
    SIDECAR_ADVERTISE_ADDRESS: `127.0.0.1:${port}`,
    APP_URL: stack.baseUrl,
    SIDECAR_NAME: name,
    SIDECAR_PASSWORD: password,
    HEARTBEAT_INTERVAL_MS: "400",
    HEARTBEAT_MAX_BACKOFF_MS: "800",
    TELEMETRY_INTERVAL_MS: "250",
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
  };
  delete env.NVIDIA_SMI;
  // A per-start key, learnt by the app from the heartbeat (the detail page's telemetry calls prove it).
  delete env.SIDECAR_CALL_KEY;
  const proc = spawn(process.execPath, ["--import", "tsx", "sidecar/main.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  return {
    proc,
    log: () => out,
    stop: () =>
      new Promise<void>((res) => {
        if (proc.exitCode !== null) return res();
        proc.once("exit", () => res());
        proc.kill("SIGTERM");
        setTimeout(() => proc.kill("SIGKILL"), 3000).unref();
      }),
  };
}

async function until<T>(what: string, fn: () => Promise<T | false | null | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${stack.logs().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The server rows of the management page: name → online. */
async function serverStates(c: Client): Promise<Map<string, boolean>> {
  const html = await c.html("/admin/manage_server");
  return new Map([...html.matchAll(/data-testid="server-([^"]+)" data-online="(true|false)"/g)].map((m) => [m[1], m[2] === "true"]));
}

async function createServer(c: Client, username: string, password: string, password2 = password) {
  return c.post("/admin/manage_server", { intent: "create", username, password, password2 });
}

beforeAll(async () => {
  stack = await startStack({
    sidecar: false,
    env: { NODE_ENV: "test", SERVER_ONLINE_THRESHOLD_MS: String(THRESHOLD_MS), LOCAL_SIDECAR_PASSWORD: "local-secret-1", SIDECARS: "" },
  });
  admin = await adminClient(stack.baseUrl);
  adminZh = await adminClient(stack.baseUrl);
  await adminZh.post("/language", { lng: "zh", redirectTo: "/homepage" });
  user = await userClient(stack.baseUrl, "plain-user");
});
afterAll(async () => {
  await stack?.stop();
});

describe("admin-only pages and actions", () => {
  const pages = ["/admin", "/admin/manage_server", "/admin/ranking", "/server_detail/1"];
  it("send anonymous visitors to log in", async () => {
    for (const p of pages) {
      const res = await anon().get(p);
      expect(res.status, p).toBe(302);
      expect(location(res), p).toMatch(/^\/signin\?notice=login-first/);
    }
    const res = await anon().post("/admin/manage_server", { intent: "create", username: "x", password: "p", password2: "p" });
    expect(res.status).toBe(302);
    expect(location(res)).toMatch(/^\/signin/);
  });

  it("answer 403 to users who are not administrators, pages and actions alike", async () => {
    for (const p of pages) expect((await user.get(p)).status, p).toBe(403);
    expect((await createServer(user, "sneaky", "p")).status).toBe(403);
    expect((await user.post("/admin/manage_server", { intent: "delete", only: "1" })).status).toBe(403);
    expect((await serverStates(admin)).has("sneaky")).toBe(false);
    expect((await serverStates(admin)).has("local")).toBe(true); // the delete did not happen
  });

  it("answer a user's /admin with the translated 403 page the other admin pages give, in both languages", async () => {
    const userZh = await userClient(stack.baseUrl, "plain-user-zh");
    await userZh.post("/language", { lng: "zh", redirectTo: "/homepage" });
    for (const p of ["/admin", "/admin/manage_server"]) {
      const en = await user.get(p);
      expect(en.headers.get("content-type"), p).toMatch(/^text\/html/);
      const html = await en.text();
      expect(html, p).toContain("403 — Forbidden");
      expect(html, p).toContain("Administrators only.");
      // The key itself is not what the page says (it stays in the hydration data only).
      expect(html.slice(0, html.indexOf("</main>")), p).not.toContain("account:msg.adminsOnly");
      const zh = await (await userZh.get(p)).text();
      expect(zh, p).toContain("403 — 禁止访问");
      expect(zh, p).toContain("仅限管理员。");
    }
  });

  it("keep /admin/queues for administrators only; without Redis it explains itself inside the layout", async () => {
    const anonymous = await anon().get("/admin/queues");
    expect(anonymous.status).toBe(302);
    expect(location(anonymous)).toMatch(/^\/signin/);
    expect((await user.get("/admin/queues")).status).toBe(403);
    const res = await admin.get("/admin/queues");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="queues-in-process"');
    expect(html).toContain("REDIS_URL is not set");
    expect(html).toContain('class="topbar"');
  });

  it("let administrators in; /admin shows manage_server", async () => {
    const res = await admin.get("/admin");
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/admin/manage_server");
    const html = await admin.html("/admin/manage_server");
    expect(html).toContain("Contributor ranking");
    expect((await admin.get("/admin/ranking")).status).toBe(200);
  });
});

describe("server entries", () => {
  it("the seeded local sidecar entry is listed", async () => {
    expect((await serverStates(admin)).get("local")).toBe(false);
  });

  // The original messages are Chinese (docs/product.md "Administration and servers"): checked in the Chinese interface (the English one translates them).
  it("create: the original site's field messages, then 新建成功; a taken name is 新建失败", async () => {
    let res = await createServer(adminZh, "", "", "");
    expect(res.status).toBe(400);
    let html = await res.text();
    expect(html).toContain("服务器名不得为空");
    expect(html).toContain("密码不得为空");
    res = await createServer(adminZh, "gpu-a", "pw-1", "pw-2");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("两次密码不一致");

    res = await createServer(adminZh, "gpu-a", "pw-1");
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/admin/manage_server?msg=created");
    html = await adminZh.html(location(res)!);
    expect(html).toContain("新建成功");
    expect(html).toContain('data-testid="server-gpu-a" data-online="false"');

    res = await createServer(adminZh, "gpu-a", "other");
    expect(location(res)).toBe("/admin/manage_server?msg=create-failed");
    expect(await adminZh.html(location(res)!)).toContain("新建失败");
  });

  it("delete: 删除成功, and 删除失败 for an entry that is not there; the list reloads after both", async () => {
    await createServer(adminZh, "short-lived", "pw");
    const html = await adminZh.html("/admin/manage_server");
    const id = html.match(/href="\/server_detail\/(\d+)">short-lived</)![1];
    // The delete buttons ask first (a GET); a deletion posted without the confirmation's own
    // button is sent to that step, and nothing is deleted.
    const ask = await adminZh.html(`/admin/manage_server?confirm=delete&only=${id}`);
    expect(ask).toContain('data-testid="confirm-delete-step"');
    expect(ask).toContain("删除所选服务器：short-lived？");
    expect(ask).toContain(`name="server_ids" value="${id}"`);
    let res = await adminZh.post("/admin/manage_server", { intent: "delete", only: id });
    expect(location(res)).toBe(`/admin/manage_server?confirm=delete&server_ids=${id}`);
    expect(await adminZh.html("/admin/manage_server")).toContain("server-short-lived");
    res = await adminZh.post("/admin/manage_server", { intent: "delete", server_ids: id, confirmed: "1" });
    expect(location(res)).toBe("/admin/manage_server?msg=deleted");
    const after = await adminZh.html(location(res)!);
    expect(after).toContain("删除成功");
    expect(after).not.toContain("server-short-lived");
    res = await adminZh.post("/admin/manage_server", { intent: "delete", only: id, confirmed: "1" });
    expect(location(res)).toBe("/admin/manage_server?msg=delete-failed");
    expect(await adminZh.html(location(res)!)).toContain("删除失败");
  });
});

describe("sidecar registration and heartbeats", () => {
  it("refuses wrong credentials with 401 and logs it", async () => {
    const res = await fetch(`${stack.baseUrl}/api/sidecars/heartbeat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "gpu-a",
        password: "wrong",
        grpcAddress: "127.0.0.1:1",
        gpuIndex: 0,
        freeCompute: 1,
        totalMemoryMiB: 1,
        driverVersion: "",
        cudaVersion: "",
        processes: [],
      }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ ok: false });
    await until("the refusal in the log", async () => stack.logs().includes("heartbeat refused: wrong credentials"));
    expect(stack.logs()).not.toContain('"wrong"'); // never the password
  });

  it("a sidecar registers (online, telemetry), goes offline when stopped, and comes back", async () => {
    const port = await freePort();
    let sc = startSidecar(port, "gpu-a", "pw-1");
    try {
      await until("gpu-a online", async () => (await serverStates(admin)).get("gpu-a") === true);
      const list = await admin.html("/admin/manage_server");
      expect(list).toContain("208.0 GiB"); // 2 × 81920 + 2 × 24576 MiB
      // Times say their zone (the app server's local time, UTC±hh:mm).
      expect(list).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC[+−]\d\d:\d\d</);
      // GPU processes as chips, colours from the 10 greens in order.
      expect(list).toMatch(/class="gpu-process" data-colour="#1b5e20"[^>]*>GPU <!-- -->0<!-- --> · <!-- -->21877/);
      expect(list).toContain('data-colour="#2e7d32"');

      // The app's chooser now sends work to it (the stack's SIDECARS is empty).
      process.env.DATABASE_URL = stack.dbUrl;
      process.env.SERVER_ONLINE_THRESHOLD_MS = String(THRESHOLD_MS);
      process.env.SIDECARS = "";
      const servers = await import("../../app/.server/servers.server.ts");
      // With the key its heartbeat delivered: made at its start, not the stack's configured one.
      const target = await servers.chooseSidecar();
      expect(target.address).toBe(`127.0.0.1:${port}`);
      expect(target.callKey).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const id = list.match(/href="\/server_detail\/(\d+)">gpu-a</)![1];
      const detail = await until("telemetry history", async () => {
        const h = await admin.html(`/server_detail/${id}`);
        return /data-testid="chart-memoryMiB" data-points="[2-9]/.test(h) && h;
      });
      expect(detail).toMatch(/data-testid="driver-version">535\.161\.08</);
      expect(detail).toMatch(/data-testid="cuda-version">12\.2</);
      // What runs its networks, from its heartbeat: this host's onnxruntime offers no GPU provider.
      expect(detail).toMatch(/data-testid="execution-provider">cpu</);
      expect(detail).toMatch(/data-testid="server-state">online</);
      // Six charts of GPU 0; its fan reads [N/A] (a passively cooled A100), so that one says unknown, not 0.
      expect(detail.match(/class="server-chart"/g)?.length).toBe(6);
      expect(detail.match(/class="rv-xy-plot"/g)?.length).toBe(5);
      expect(detail).toMatch(/data-testid="latest-fan">unknown</);
      expect(detail).toMatch(/data-testid="latest-memoryMiB">40123 MiB</);
      expect(detail).toMatch(/data-testid="latest-utilization">87 %</);
      expect(detail).toMatch(/data-testid="latest-temperature">61 °C</);
      expect(detail).toMatch(/data-testid="latest-perf">P0</);
      expect(detail).toMatch(/data-testid="latest-power">312.5 W</);
      expect(detail).toMatch(/data-testid="gpu-name">NVIDIA A100-SXM4-80GB</);
      expect(detail).toMatch(/data-testid="refresh-link"/);
      expect(detail).toMatch(/data-testid="time-zone">\(UTC[+−]\d\d:\d\d\)</);
      expect(detail).toMatch(/data-testid="server-last-login">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC[+−]\d\d:\d\d</);
      expect(detail).toMatch(/rv-xy-plot__axis__tick__text">\d\d:\d\d</);

      await sc.stop();
      await until("gpu-a offline", async () => (await serverStates(admin)).get("gpu-a") === false, THRESHOLD_MS + 10_000);
      await expect(servers.chooseSidecar()).rejects.toThrow(/No compute server is online/);
      const offline = await admin.html(`/server_detail/${id}`);
      expect(offline).toMatch(/data-testid="server-state">offline</);
      expect(offline).toMatch(/data-testid="driver-version">535\.161\.08</); // from the last heartbeat

      sc = startSidecar(port, "gpu-a", "pw-1");
      await until("gpu-a back online", async () => (await serverStates(admin)).get("gpu-a") === true);
      // Restarted with a new key; the app uses it at once (the detail page's telemetry call succeeds).
      await until("the new key", async () => (await servers.chooseSidecar()).callKey !== target.callKey);
      const back = await until("telemetry after the restart", async () => {
        const h = await admin.html(`/server_detail/${id}`);
        return /data-testid="chart-memoryMiB" data-points="[1-9]/.test(h) && h;
      });
      expect(back).toMatch(/data-testid="server-state">online</);
    } finally {
      await sc.stop();
    }
  });

  it("a sidecar with a wrong password stays offline", async () => {
    const sc = startSidecar(await freePort(), "local", "not-the-password");
    try {
      await until("the refusal in the sidecar log", async () => sc.log().includes("app refused the sidecar's credentials"));
      expect((await serverStates(admin)).get("local")).toBe(false);
    } finally {
      await sc.stop();
    }
  });

  it("server detail of a server that never reported says unknown", async () => {
    const html = await admin.html("/admin/manage_server");
    const id = html.match(/href="\/server_detail\/(\d+)">local</)![1];
    const detail = await admin.html(`/server_detail/${id}`);
    expect(detail).toMatch(/data-testid="driver-version">unknown</);
    expect(detail).toMatch(/data-testid="cuda-version">unknown</);
    expect(detail).toContain("never sent a heartbeat");
    expect((await admin.get("/server_detail/999999")).status).toBe(404);
  });

  // Last: it locks this address out of heartbeats for the rest of the stack's life.
  it("throttles password guessing per entry and address (429); the registered sidecar's right password still gets through", async () => {
    const beat = (password: string) =>
      fetch(`${stack.baseUrl}/api/sidecars/heartbeat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "gpu-a",
          password,
          grpcAddress: "127.0.0.1:1",
          gpuIndex: -1,
          freeCompute: 0,
          totalMemoryMiB: 0,
          driverVersion: "",
          cudaVersion: "",
          processes: [],
        }),
      });
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) status = (await beat(`guess-${i}`)).status;
    expect(status).toBe(429);
    expect((await beat("still-guessing")).status).toBe(429);
    // gpu-a registered from this address: its own password is checked and accepted, so guesses
    // from the same address cannot knock the real sidecar offline.
    expect((await beat("pw-1")).status).toBe(200);
  });
});
