// The server entry of the Remix build. Besides rendering, it exports what server.ts needs from
// the app (`integration`), so Express and the routes share one module graph (docs/architecture.md).
//
// Every document is rendered whole and sent as one buffer rather than streamed: no route defers
// data or suspends, so React's shell is already the whole page, and streaming it cost each
// request a web stream, a Node stream and a compression call per 2 KiB write — a fifth of a
// signed-in page's time (docs/performance.md "Signed-in pages").
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { Writable } from "node:stream";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { AppServerIntegration } from "../server/appEntry.ts";
import { CLIENT_IP_HEADER } from "./.server/auth.server.ts";
import { i18nFor, requestLanguage } from "./.server/i18n.server.ts";
import { NonceProvider } from "./lib/nonce.tsx";
import { FragmentProvider } from "./components/SharedHtml.tsx";
import { mountExpressRoutes } from "./.server/express.server.ts";
import { logger } from "./.server/logger.server.ts";
import { publicPageKey } from "./.server/publicPages.server.ts";
import { startRuntime, stopRuntime } from "./.server/runtime.server.ts";
import { withoutNulBytes } from "./.server/stripNul.server.ts";
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
  const i18n = await i18nFor(await requestLanguage(request));
  return new Promise<Response>((resolve, reject) => {
    let rendered = false;
    const timer = setTimeout(() => stream.abort(), ABORT_DELAY_MS);
    const stream = renderToPipeableStream(
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
        onAllReady() {
          rendered = true;
          const chunks: Uint8Array[] = [];
          stream.pipe(
            new Writable({
              write(chunk: Uint8Array, _encoding, callback) {
                chunks.push(chunk);
                callback();
              },
              final(callback) {
                clearTimeout(timer);
                responseHeaders.set("Content-Type", "text/html");
                // React 18 can write NUL bytes into a page (stripNul.server.ts).
                resolve(new Response(withoutNulBytes(chunks), { headers: responseHeaders, status: responseStatusCode }));
                callback();
              },
            }),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged here; before it, handleError below sees them.
          if (rendered) logger("render").error({ err: error }, "render error after the shell");
        },
      },
    );
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
