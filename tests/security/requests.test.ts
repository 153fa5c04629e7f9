// Request bodies and fields (docs/security.md "Cases"): every body is bounded before it is
// buffered, whatever the spelling of the path; every upload route checks the sign-in before it
// reads a byte; malformed multipart is a 400; UTF-8 file names survive; a caller's request id is
// never echoed unless it is a plain token; odd methods, body types, redirect targets and Origins
// get a clean 4xx (or the redirect), never a 500.
import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { login, register, userClient } from "../support/accounts.ts";
import { CAPTCHA } from "../support/stack.ts";
import { mapsZip } from "../support/maps.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
});
afterAll(async () => {
  await stack?.stop();
});

const rssKiB = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]);

/**
 * Sends a request whose headers promise more than it sends: the headers, then `send` bytes of
 * body (or the given bytes), and returns the response's status line. A server that refuses early
 * may close the socket while the body is still being written; the status line it sent first is
 * what counts.
 */
function rawRequest(method: string, path: string, headers: Record<string, string>, send: number | Buffer): Promise<string> {
  const url = new URL(stack.baseUrl);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: ${url.host}\r\n${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join("")}\r\n`,
      );
      if (typeof send !== "number") socket.write(send);
      else if (send > 0) socket.write(Buffer.alloc(send, 0x61));
    });
    socket.on("data", (d) => {
      answer += d.toString("latin1");
      if (answer.includes("\r\n")) socket.destroy();
    });
    socket.on("error", () => undefined); // EPIPE/ECONNRESET after an early answer
    socket.on("close", () =>
      answer.includes("\r\n") ? resolve(answer.split("\r\n")[0]) : reject(new Error(`no answer from the server: ${JSON.stringify(answer)}`)),
    );
  });
}
const rawPost = (path: string, headers: Record<string, string>, send: number | Buffer) => rawRequest("POST", path, headers, send);

describe(`request bodies on ${process.env.TEST_DB}`, () => {
  it("a 200 MiB anonymous POST to the sign-in page is refused (413) before it is read; the process does not grow", async () => {
    const pid = stack.webPid()!;
    const before = rssKiB(pid);
    const status = await rawPost("/signin", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(200 * 1024 * 1024) }, 256 * 1024);
    expect(status).toMatch(/^HTTP\/1\.1 413/);
    expect(rssKiB(pid) - before).toBeLessThan(64 * 1024); // well under the 200 MiB it was offered
  });

  it("the heartbeat's cap is small: an 80 MiB body is refused before it is read or hashed", async () => {
    const status = await rawPost("/api/sidecars/heartbeat", { "Content-Type": "application/json", "Content-Length": String(80 * 1024 * 1024) }, 64 * 1024);
    expect(status).toMatch(/^HTTP\/1\.1 413/);
  });

  it("a body without a declared length is refused (411) outside the upload routes", async () => {
    const status = await rawPost("/signin", { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" }, 0);
    expect(status).toMatch(/^HTTP\/1\.1 411/);
  });

  it("multipart is taken only by the upload routes; malformed multipart is a 400 with a message", async () => {
    const c = await userClient(stack.baseUrl, "multipart-carol");
    const fd = new FormData();
    fd.append("username", "x");
    const other = await c.post("/signin", fd);
    expect(other.status).toBe(415);
    expect(await other.text()).toContain("does not take file uploads");
    const bad = await c.request("/submission", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=XYZ" },
      body: "--XYZ\r\nnot a part header\r\n\r\n",
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("not well-formed multipart/form-data");
  });

  it("every upload route refuses an anonymous body before reading it; four parallel 24 MiB bodies do not grow the process", async () => {
    const routes = [
      "/datasetInDetail",
      "/UserImgclassification",
      "/submission?suite=metarank-local",
      "/submission?suite=metarank-local&intent=upload-maps",
      "/api/v1/suites/metarank-local/score",
      "/api/v1/suites/metarank-local/submit",
      "/api/v1/suites/metarank-local/maps",
    ];
    // A small anonymous upload to each: the middleware's 401, not the route's own answer after parsing.
    for (const route of routes) {
      const fd = new FormData();
      fd.append("intent", "upload");
      fd.append("pictures", new Blob([Buffer.alloc(64 * 1024, 0x61)], { type: "image/png" }), "a.png");
      const res = await new Client(stack.baseUrl).post(route, fd);
      expect(res.status, route).toBe(401);
      expect(await res.text(), route).toContain("Sign in (or send an API token) before uploading files here.");
    }
    // A browser's own form (it asks for HTML) gets the log-in page from the route instead, the body still unread.
    for (const route of ["/datasetInDetail", "/UserImgclassification?tab=pool"]) {
      const fd = new FormData();
      fd.append("intent", "upload");
      fd.append("pictures", new Blob([Buffer.alloc(64 * 1024, 0x61)], { type: "image/png" }), "a.png");
      const res = await new Client(stack.baseUrl).request(route, { method: "POST", body: fd, headers: { Accept: "text/html" } });
      expect(res.status, route).toBe(302);
      expect(res.headers.get("location"), route).toMatch(/^\/signin\?notice=login-first/);
    }
    // What the old order cost: 50 pictures of up to 10 MB each were held in memory before the
    // sign-in check. Four at once, each twelve 2 MiB pictures (24 MiB), sent whole.
    const pid = stack.webPid()!;
    const before = rssKiB(pid);
    const part = Buffer.alloc(2 * 1024 * 1024, 0x62);
    const boundary = "----metarank-anon";
    const body = Buffer.concat([
      ...Array.from({ length: 12 }, (_, i) =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pictures"; filename="p${i}.png"\r\nContent-Type: image/png\r\n\r\n`),
          part,
          Buffer.from("\r\n"),
        ]),
      ),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const statuses = await Promise.all(
      Array.from({ length: 4 }, () =>
        rawPost("/datasetInDetail", { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": String(body.length) }, body),
      ),
    );
    for (const status of statuses) expect(status).toMatch(/^HTTP\/1\.1 401/);
    expect(rssKiB(pid) - before).toBeLessThan(48 * 1024); // the four bodies are 96 MiB together
  });

  it("page actions answer a clean 4xx for odd methods and body types, and an empty body reads as an empty form", async () => {
    const c = new Client(stack.baseUrl);
    const trace = await c.request("/homepage", { method: "TRACE" }).catch(() => null);
    // fetch refuses to send TRACE itself; the raw socket does.
    expect(trace).toBeNull();
    expect(await rawRequest("TRACE", "/homepage", {}, Buffer.alloc(0))).toMatch(/^HTTP\/1\.1 405/);
    for (const [path, type, body] of [
      ["/signin", "application/json", "{}"],
      ["/language", "text/plain", "lng=zh"],
      ["/profile", "application/xml", "<a/>"],
      ["/signin", "", "intent=login"],
    ]) {
      const res = await c.request(path, { method: "POST", headers: type ? { "Content-Type": type } : {}, body: type ? body : Buffer.from(body) });
      expect(res.status, `${path} ${type}`).toBe(415);
      expect(await res.text()).toContain("This address takes forms only");
    }
    // The JSON routes still take JSON.
    const heartbeat = await c.request("/api/sidecars/heartbeat", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(heartbeat.status).toBe(400);
    const empty = await c.request("/language", { method: "POST" });
    expect(empty.status).toBe(302);
  });

  it("a redirect target with non-Latin-1 characters is followed percent-encoded; an Origin without the site's port is a 403", async () => {
    const target = "/datasetPreview?q=数据集";
    const lang = await new Client(stack.baseUrl).post("/language", { lng: "zh", redirectTo: target });
    expect(lang.status).toBe(302);
    expect(lang.headers.get("location")).toBe(`/datasetPreview?q=${encodeURIComponent("数据集")}`);
    const dora = new Client(stack.baseUrl);
    await register(dora, "redirect-dora");
    const captchaId = await dora.captchaId("/signin");
    const signIn = await dora.post("/signin", {
      intent: "login",
      username: "redirect-dora",
      password: "secret-pass-1",
      code: CAPTCHA,
      captchaId,
      redirectTo: target,
    });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("location")).toBe(`/datasetPreview?q=${encodeURIComponent("数据集")}`);

    const { hostname, port } = new URL(stack.baseUrl);
    const eve = new Client(stack.baseUrl);
    await login(eve, "redirect-dora");
    for (const path of ["/signin", "/language", "/signout"]) {
      const res = await eve.request(path, {
        method: "POST",
        headers: { Origin: `http://${hostname}`, "Content-Type": "application/x-www-form-urlencoded" },
        body: "intent=login&lng=zh",
      });
      expect(res.status, path).toBe(403);
    }
    const own = await eve.request("/signout", { method: "POST", headers: { Origin: `http://${hostname}:${port}` } });
    expect(own.status).toBe(302);
  });

  it("five maps uploads of one user sent at the same moment: one is queued, the others are refused (one at a time)", async () => {
    const erin = await userClient(stack.baseUrl, "maps-race-erin");
    const zip = new Blob([await mapsZip()], { type: "application/zip" });
    const upload = (i: number) => {
      const maps = new FormData();
      maps.set("suite", "metarank-local-v1");
      maps.set("method", `Race maps ${i}`);
      maps.set("maps", zip, "maps.zip");
      return erin.post("/submission?suite=metarank-local-v1&intent=upload-maps", maps).then((r) => r.status);
    };
    const statuses = await Promise.all(Array.from({ length: 5 }, (_, i) => upload(i)));
    expect(
      statuses.filter((s) => s === 302),
      statuses.join(","),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 409),
      statuses.join(","),
    ).toHaveLength(4);
  });

  it("the 500 KB limit of result files holds for every spelling of the submission path", async () => {
    const alice = await userClient(stack.baseUrl, "spelling-alice");
    for (const spelling of ["/submission", "/SUBMISSION", "/Submission/", "/%73ubmission"]) {
      const fd = new FormData();
      fd.append("intent", "upload-morf");
      fd.append("morf", new Blob([Buffer.alloc(600 * 1024, 0x31)], { type: "text/csv" }), "morf.csv");
      const res = await alice.post(`${spelling}?suite=metarank-local`, fd);
      const text = await res.text();
      expect(res.status, spelling).toBeLessThan(500);
      expect(text, spelling).toContain("Please upload a CSV file with a size less than 500KB.");
    }
  });

  it("file names sent as UTF-8 are stored and shown as sent", async () => {
    const bob = await userClient(stack.baseUrl, "utf8-bob");
    const created = await bob.post("/datasetInDetail", { intent: "create", name: "utf8 names", visibility: "private" });
    const id = new URL(created.headers.get("location")!, "http://x").searchParams.get("dataset");
    const png = fs.readFileSync(new URL("../fixtures/images/red.png", import.meta.url));
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("datasetId", String(id));
    fd.append("pictures", new Blob([png], { type: "image/png" }), "猫の写真 ñ.png");
    await bob.post(`/datasetInDetail?dataset=${id}`, fd);
    const html = await bob.html(`/datasetInDetail?dataset=${id}`);
    expect(html).toContain("猫の写真 ñ.png");
  });

  it("a caller's request id is echoed only when it is a plain token", async () => {
    const c = new Client(stack.baseUrl);
    const plain = await c.request("/healthz", { headers: { "X-Request-Id": "abc-123.DEF_9" } });
    expect(plain.headers.get("x-request-id")).toBe("abc-123.DEF_9");
    const hostile = await c.request("/no-such-page", { headers: { "X-Request-Id": "<script>alert(1)</script>" } });
    expect(hostile.headers.get("x-request-id")).not.toContain("<");
    expect(await hostile.text()).not.toContain("<script>alert(1)</script>");
  });
});
