// The server entry of the Remix build. Besides rendering (Remix's Node entry, streamed; bots
// and no-JS crawlers get the whole document at once), it exports what server.ts needs from the
// app (`integration`), so Express and the routes share one module graph (docs/architecture.md).
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { createInstance } from "i18next";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import type { AppServerIntegration } from "../server/appEntry.ts";
import { CLIENT_IP_HEADER } from "./.server/auth.server.ts";
import { requestLanguage } from "./.server/i18n.server.ts";
import { i18nConfig, resources } from "./i18n/config.ts";
import { NonceProvider } from "./lib/nonce.tsx";
import { FragmentProvider } from "./components/SharedHtml.tsx";
import { mountExpressRoutes } from "./.server/express.server.ts";
import { logger } from "./.server/logger.server.ts";
import { publicPageKey } from "./.server/publicPages.server.ts";
import { startRuntime, stopRuntime } from "./.server/runtime.server.ts";
import { stripNulBytes } from "./.server/stripNul.server.ts";
import { multipartMiddleware } from "./.server/uploads.server.ts";

const ABORT_DELAY_MS = 5_000;

export const integration: AppServerIntegration = {
  startRuntime,
  stopRuntime,
  clientIpHeader: CLIENT_IP_HEADER,
  mountExpressRoutes,
  multipartMiddleware,
  publicPageKey,
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  // One i18next instance per request: two visitors in two languages never share one.
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({ ...i18nConfig, resources, lng: await requestLanguage(request) });
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        {/* The shared fragments the loaders fetched (app/.server/fragments.server.tsx). */}
        <FragmentProvider value={loadContext.fragments ?? null}>
          <I18nextProvider i18n={i18n}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
          </I18nextProvider>
        </FragmentProvider>
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          // Not a plain PassThrough: React 18 can write NUL bytes into the stream (stripNul.server.ts).
          const body = stripNulBytes();
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged here; before it, handleError below sees them.
          if (shellRendered) logger("render").error({ err: error }, "render error after the shell");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS);
  });
}

/** Loader, action and render errors, logged once with the request id (aborted requests are not errors). */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  logger("remix").error(
    { err: error, reqId: context?.requestId, method: request.method, path: new URL(request.url).pathname },
    "unhandled error in a loader, action or render",
  );
};
