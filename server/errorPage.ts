// The answers Express gives itself, outside the Remix app (error pages are styled
// pages with a way back): an unhandled error (500), a cross-site form (originCheck, 403), a
// method the app does not answer (methodCheck, 405) and
// bull-board's admin guard (403). Browsers get a small page in the site's colours with the
// message in English and Chinese (this layer does not know the visitor's language) and links
// back; other clients (scripts, bull-board's own XHRs) get the English sentence as plain text.
// The Remix pages' own 403/404/500 are app/root.tsx's ErrorBoundary.
import type { ErrorRequestHandler, Request, Response } from "express";

export interface ErrorText {
  en: string;
  zh: string;
}

export const EXPRESS_ERRORS = {
  internal: { en: "Something went wrong. Please try again later.", zh: "出错了，请稍后再试。" },
  crossSite: { en: "This request came from another site and was refused.", zh: "该请求来自其他网站，已被拒绝。" },
  adminsOnly: { en: "Administrators only.", zh: "仅限管理员访问。" },
  methodNotAllowed: { en: "This method is not accepted here.", zh: "此地址不接受该请求方法。" },
} satisfies Record<string, ErrorText>;

const TITLES: Record<number, ErrorText> = {
  403: { en: "Not allowed", zh: "无权访问" },
  405: { en: "Method not allowed", zh: "不支持的请求方法" },
  500: { en: "Server error", zh: "服务器错误" },
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: no script, no external resource, so it renders under any Content-Security-Policy. */
export function errorPageHtml(status: number, text: ErrorText): string {
  const title = TITLES[status] ?? { en: `Error ${status}`, zh: `错误 ${status}` };
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${status} ${escape(title.en)} — Meta-Rank</title>
<style>
body{margin:0;font-family:-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans SC","PingFang SC","Microsoft YaHei",sans-serif;color:#1f2937;background:#f5f6fb}
header{background:#111827;color:#fff;padding:.75rem 1.25rem;font-weight:700}
main{max-width:40rem;margin:3rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #e5e7eb;border-radius:10px}
h1{margin:0 0 1rem;font-size:1.5rem}
p{line-height:1.6}
a{color:#4f46e5}
.code{color:#4b5563;font-size:.9rem}
</style>
</head>
<body>
<header>Meta-Rank</header>
<main>
<p class="code">${status}</p>
<h1>${escape(title.en)} · <span lang="zh-CN">${escape(title.zh)}</span></h1>
<p>${escape(text.en)}</p>
<p lang="zh-CN">${escape(text.zh)}</p>
<p><a href="/homepage">Back to the homepage</a> · <a href="/homepage" lang="zh-CN">返回首页</a></p>
</main>
</body>
</html>
`;
}

/** Sends the page to browsers (they ask for HTML) and the sentence to everyone else. */
export function sendError(req: Request, res: Response, status: number, text: ErrorText): void {
  res.status(status);
  if (req.accepts(["text/plain", "html"]) === "html" || (req.headers.accept ?? "").includes("text/html")) {
    res.type("text/html; charset=utf-8").send(errorPageHtml(status, text));
  } else {
    res.type("text/plain; charset=utf-8").send(text.en);
  }
}

/** The last Express handler: logs the error with the request id, answers 500 without details. */
export function errorHandler(log: (err: unknown, reqId: string | undefined) => void): ErrorRequestHandler {
  return (err, req, res, next) => {
    log(err, (req as Request & { requestId?: string }).requestId);
    if (res.headersSent) return next(err);
    sendError(req, res, 500, EXPRESS_ERRORS.internal);
  };
}
