// Refusals of resource routes (URLs that answer a file, a picture or a CSV rather than a page).
// Guards and domain refusals throw a Response whose body is a message ref (requireAdmin's
// "account:msg.adminsOnly", orRefusal's not-found refs; app/lib/forms/messages.ts): on a page the
// layout's error boundary translates it, but a resource route has no page, and Remix sends the
// thrown Response as it is, so a visitor who opened the link saw the raw key. These send it as
// plain text in the request's language (docs/i18n.md "Messages from rules").
import { i18nServer } from "~/.server/i18n.server.ts";
import { decodeMessage, translateMessage } from "~/lib/forms/messages.ts";

/** The same refusal with a message-ref body translated; any other Response is returned unchanged. */
export async function translateRefusal(request: Request, res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const type = res.headers.get("Content-Type");
  if (type && !/^text\/plain\b/i.test(type)) return res;
  const body = await res.clone().text();
  if (!decodeMessage(body)) return res;
  const t = await i18nServer.getFixedT(request, "common");
  const headers = new Headers(res.headers);
  headers.set("Content-Type", "text/plain; charset=utf-8");
  headers.delete("Content-Length");
  return new Response(translateMessage(t, body), { status: res.status, statusText: res.statusText, headers });
}

/** Runs a resource route's loader; a refusal it throws (guard, not found) reaches the visitor translated. */
export async function withTranslatedRefusals<T>(request: Request, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (e instanceof Response) throw await translateRefusal(request, e);
    throw e;
  }
}
