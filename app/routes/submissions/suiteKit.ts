// GET /suites/<id>/kit.zip — the suite's kit (docs/suite-kit.md): images, labels and models of
// every task, built by a sidecar once per suite version and served from var/kits
// (kits.server.ts). GET /suites/<id>/kit.zip?task=<task> — the same for one task of the suite
// (one dataset/model pair), cached the same way (the tutorial page's GET form asks for it). The
// file is streamed, never read into memory; the ETag is the kit's key, so a client revalidating
// an unchanged kit gets 304. Errors are the site's bilingual message page (server/errorPage.ts):
// an unknown suite or task, or one whose data is not installed here, is 404.
import fs from "node:fs";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { errorPageHtml, type ErrorText } from "../../../server/errorPage.ts";
import { findSuite } from "~/.server/submissions.server.ts";
import { KIT_SUITE_ID, KIT_TASK_ID, suiteKit } from "~/.server/kits.server.ts";
import { SidecarCallError } from "~/.server/sidecar.server.ts";
import { logger } from "~/.server/logger.server.ts";

const TEXT = {
  noSuite: (id: string): ErrorText => ({ en: `There is no suite “${id}”.`, zh: `没有名为“${id}”的评测套件。` }),
  noTask: (id: string, task: string): ErrorText => ({ en: `Suite “${id}” has no task “${task}”.`, zh: `评测套件“${id}”中没有任务“${task}”。` }),
  notInstalled: (id: string): ErrorText => ({
    en: `The data and models of suite “${id}” are not installed on this server, so it has no download kit. An operator installs its tasks' datasets and trained checkpoints to make the kit available.`,
    zh: `评测套件“${id}”的数据和模型未安装在本服务器上，因此没有可下载的工具包。管理员安装其任务的数据集和训练好的模型后即可下载。`,
  }),
  taskNotInstalled: (id: string, task: string): ErrorText => ({
    en: `The data or model of task “${task}” of suite “${id}” is not installed on this server, so it has no download kit. An operator installs the task's dataset and trained checkpoint to make the kit available.`,
    zh: `评测套件“${id}”中任务“${task}”的数据或模型未安装在本服务器上，因此没有可下载的工具包。管理员安装该任务的数据集和训练好的模型后即可下载。`,
  }),
  down: { en: "The compute server that builds kits did not answer. Please try again later.", zh: "生成工具包的计算服务器没有响应，请稍后再试。" },
} satisfies Record<string, ErrorText | ((id: string, task: string) => ErrorText)>;

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
  const suite = await findSuite(suiteId);
  if (!suite) return errorResponse(404, TEXT.noSuite(suiteId));
  // ?task=: one task of the suite (an empty choice is the whole kit); anything else is a 404.
  const task = new URL(request.url).searchParams.get("task") || null;
  if (task !== null && (!KIT_TASK_ID.test(task) || !suite.tasks.includes(task))) return errorResponse(404, TEXT.noTask(suiteId, task.slice(0, 64)));
  let kit;
  try {
    kit = await suiteKit(suiteId, task);
  } catch (err) {
    if (err instanceof SidecarCallError && err.code === 5 /* NOT_FOUND */)
      return errorResponse(404, task === null ? TEXT.notInstalled(suiteId) : TEXT.taskNotInstalled(suiteId, task));
    if (err instanceof SidecarCallError && err.kind === "retryable") return errorResponse(503, TEXT.down);
    logger("kits").error({ err, suite: suiteId, task }, "kit download failed");
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
      "Content-Disposition": `attachment; filename="${task === null ? suiteId : `${suiteId}-${task}`}-kit.zip"`,
    },
  });
}
