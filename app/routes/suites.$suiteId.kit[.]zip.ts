// GET /suites/<id>/kit.zip — the suite's kit (docs/suite-kit.md): images, labels and models of
// every task, built by a sidecar once per suite version and served from var/kits
// (kits.server.ts). The file is streamed, never read into memory; the ETag is the kit's key,
// so a client revalidating an unchanged kit gets 304. Errors are the site's bilingual message
// page (server/errorPage.ts): an unknown suite or one whose data is not installed here is 404.
import fs from "node:fs";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { errorPageHtml, type ErrorText } from "../../server/errorPage.ts";
import { findSuite } from "~/.server/submissions.server.ts";
import { KIT_SUITE_ID, suiteKit } from "~/.server/kits.server.ts";
import { SidecarCallError } from "~/.server/sidecar.server.ts";
import { logger } from "~/.server/logger.server.ts";

const TEXT = {
  noSuite: (id: string): ErrorText => ({ en: `There is no suite “${id}”.`, zh: `没有名为“${id}”的评测套件。` }),
  notInstalled: (id: string): ErrorText => ({
    en: `The data and models of suite “${id}” are not installed on this server, so it has no download kit. An operator installs its tasks' datasets and trained checkpoints to make the kit available.`,
    zh: `评测套件“${id}”的数据和模型未安装在本服务器上，因此没有可下载的工具包。管理员安装其任务的数据集和训练好的模型后即可下载。`,
  }),
  down: { en: "The compute server that builds kits did not answer. Please try again later.", zh: "生成工具包的计算服务器没有响应，请稍后再试。" },
} satisfies Record<string, ErrorText | ((id: string) => ErrorText)>;

function errorResponse(status: number, text: ErrorText): Response {
  return new Response(errorPageHtml(status, text), {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const suiteId = String(params.suiteId ?? "");
  // Bounded before any lookup: the id becomes part of a file name and a sidecar request.
  if (!KIT_SUITE_ID.test(suiteId) || suiteId.includes("..")) return errorResponse(404, TEXT.noSuite(suiteId.slice(0, 64)));
  if (!(await findSuite(suiteId))) return errorResponse(404, TEXT.noSuite(suiteId));
  let kit;
  try {
    kit = await suiteKit(suiteId);
  } catch (err) {
    if (err instanceof SidecarCallError && err.code === 5 /* NOT_FOUND */) return errorResponse(404, TEXT.notInstalled(suiteId));
    if (err instanceof SidecarCallError && err.kind === "retryable") return errorResponse(503, TEXT.down);
    logger("kits").error({ err, suite: suiteId }, "kit download failed");
    return errorResponse(500, { en: "The kit could not be prepared. Please try again later.", zh: "工具包生成失败，请稍后再试。" });
  }
  const etag = `"${kit.key}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    // Revalidate every time: the same URL serves a new kit when the suite changes.
    "Cache-Control": "public, no-cache",
    "X-Content-Type-Options": "nosniff",
    "X-Kit-Cache": kit.cached ? "hit" : "miss",
  };
  if ((request.headers.get("If-None-Match") ?? "").split(",").some((t) => t.trim() === etag)) return new Response(null, { status: 304, headers });
  const stream = fs.createReadStream(kit.file);
  return new Response(createReadableStreamFromReadable(stream), {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": "application/zip",
      "Content-Length": String(kit.size),
      "Content-Disposition": `attachment; filename="${suiteId}-kit.zip"`,
    },
  });
}
