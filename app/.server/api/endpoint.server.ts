// How every /api/v1 resource route runs (docs/api.md): the caller is identified by its bearer
// token only — never by the session cookie, so no page's cookie can drive a state-changing API
// call and the API needs no CSRF protection — then rate-limited, then checked for the role the
// endpoint needs; every refusal is the JSON error shape of errors.server.ts.
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type {} from "../context.server.ts";
import { userOfSecret, type TokenUser } from "../apiTokens.server.ts";
import { logger } from "../logger.server.ts";
import { checkFields } from "../forms.server.ts";
import { decodeMessage, messageRef } from "~/lib/forms/messages.ts";
import { API_MSG, ApiError, errorResponse } from "./errors.server.ts";
import { spendApiCall } from "./limits.server.ts";

type Params = LoaderFunctionArgs["params"];

/** "public": anyone (a token, when sent, must be valid); "user": any token; "admin": an administrator's token. */
export type Access = "public" | "user" | "admin";

export interface EndpointArgs {
  request: Request;
  params: Params;
  context: AppLoadContext;
  caller: TokenUser | null;
}

type Handler = (args: EndpointArgs) => Promise<Response>;

export interface EndpointOptions {
  /** Costs the compute server (scoring, maps): also spends the smaller compute allowance. */
  compute?: boolean;
}

/** A JSON answer; nothing the API sends is cached by the browser or a proxy. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** The bearer secret of a request: undefined without an Authorization header, null for a malformed one. */
function bearer(request: Request): string | null | undefined {
  const header = request.headers.get("Authorization");
  if (header === null) return undefined;
  const m = /^Bearer ([\x21-\x7e]{1,200})$/.exec(header.trim());
  return m ? m[1] : null;
}

async function identify(request: Request, access: Access): Promise<TokenUser | null> {
  const secret = bearer(request);
  if (secret === undefined) {
    if (access === "public") return null;
    throw new ApiError(401, "unauthorized", API_MSG.unauthorized, undefined, { "WWW-Authenticate": 'Bearer realm="metarank"' });
  }
  const caller = secret ? await userOfSecret(secret) : null;
  if (!caller)
    throw new ApiError(401, "unauthorized", API_MSG.unauthorized, undefined, { "WWW-Authenticate": 'Bearer realm="metarank", error="invalid_token"' });
  return caller;
}

/** A thrown Response from a shared helper (a form with control characters, a 404 page) as the API's error shape. */
async function fromResponse(res: Response): Promise<ApiError> {
  const text = (await res.text().catch(() => "")).slice(0, 500);
  const ref = decodeMessage(text) ? text : API_MSG.bodyInvalid;
  if (res.status === 404) return new ApiError(404, "not_found", decodeMessage(text) ? text : API_MSG.notFound);
  if (res.status === 403) return new ApiError(403, "forbidden", API_MSG.forbidden);
  if (res.status === 413) return new ApiError(413, "payload_too_large", ref);
  return new ApiError(res.status >= 400 && res.status < 500 ? res.status : 400, "bad_request", ref);
}

async function run(access: Access, handler: Handler, options: EndpointOptions, args: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> {
  try {
    const caller = await identify(args.request, access);
    // Counted per user, not per token: a user may hold MAX_LIVE_TOKENS tokens, and ten tokens must
    // not mean ten allowances.
    const key = caller ? `user:${caller.user.id}` : `ip:${args.context?.ip ?? "unknown"}`;
    const wait = await spendApiCall(key, options.compute === true);
    if (wait > 0) throw new ApiError(429, "rate_limited", messageRef(API_MSG.rateLimited, { seconds: wait }), undefined, { "Retry-After": String(wait) });
    if (access === "admin" && !caller?.user.isAdmin) throw new ApiError(403, "forbidden", API_MSG.forbidden);
    return await handler({ request: args.request, params: args.params, context: args.context, caller });
  } catch (err) {
    if (err instanceof ApiError) return errorResponse(err);
    if (err instanceof Response) return errorResponse(await fromResponse(err));
    logger("api").error({ err, reqId: args.context?.requestId }, "api endpoint failed");
    return errorResponse(new ApiError(500, "internal", API_MSG.internal));
  }
}

const notAllowed = (allow: string) => () =>
  Promise.resolve(errorResponse(new ApiError(405, "method_not_allowed", API_MSG.methodNotAllowed, undefined, { Allow: allow })));

/** A route's loader: answers GET (and HEAD). */
export function apiGet(access: Access, handler: Handler, options: EndpointOptions = {}) {
  return (args: LoaderFunctionArgs) => run(access, handler, options, args);
}

/** A route's action: answers POST; any other method is 405. */
export function apiPost(access: Access, handler: Handler, options: EndpointOptions = {}) {
  return (args: ActionFunctionArgs) => (args.request.method === "POST" ? run(access, handler, options, args) : notAllowed("POST")());
}

/** The action of a read-only route: every non-GET method is 405. */
export const getOnly = notAllowed("GET");
/** The loader of a POST-only route: GET is 405. */
export const postOnly = notAllowed("POST");

/** A positive 32-bit id from the address, else 400. */
export function idParam(params: Params, name = "id"): number {
  const raw = params[name] ?? "";
  const n = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n > 2 ** 31 - 1) throw new ApiError(400, "bad_request", API_MSG.invalidId);
  return n;
}

/**
 * The fields of a JSON object body or a form body (url-encoded, or multipart parsed by multer in
 * server.ts), as strings, through the same control-character check as every page's form.
 */
export async function readBodyFields(request: Request, context: AppLoadContext): Promise<Record<string, string>> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (type.startsWith("application/json")) {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      throw new ApiError(400, "bad_request", API_MSG.bodyInvalid);
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new ApiError(400, "bad_request", API_MSG.bodyInvalid);
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) {
      if (typeof v !== "string") throw new ApiError(400, "bad_request", API_MSG.bodyInvalid);
      fields[k] = v;
    }
    return checkFields(fields);
  }
  if (type.startsWith("multipart/form-data")) {
    if (!context.uploads) throw new ApiError(400, "bad_request", API_MSG.bodyInvalid);
    return checkFields(context.uploads.fields);
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const form = await request.formData();
    const fields: Record<string, string> = {};
    for (const [k, v] of form.entries()) if (typeof v === "string" && !(k in fields)) fields[k] = v;
    return checkFields(fields);
  }
  throw new ApiError(400, "bad_request", API_MSG.bodyInvalid);
}
