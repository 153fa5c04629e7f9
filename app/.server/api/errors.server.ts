// The JSON API's error answers (docs/api.md "Errors"): one shape for every refusal,
// `{ "error": { "code", "message": { "en", "zh" }, "details"? } }`, with the pages' own messages:
// the message refs the pages translate (app/lib/forms/messages.ts) are translated here into both
// languages, so a script sees the same words a person sees on the submission page.
import { createInstance } from "i18next";
import { i18nConfig, resources } from "~/i18n/config.ts";
import { translateMessage, type MessageRef } from "~/lib/forms/messages.ts";

const i18n = createInstance();
// Resources are bundled: initialisation is synchronous with initImmediate off.
void i18n.init({ ...i18nConfig, resources, lng: "en", initImmediate: false });
const tEn = i18n.getFixedT("en");
const tZh = i18n.getFixedT("zh");

export interface Bilingual {
  en: string;
  zh: string;
}

/** A message ref (or a server's own words, kept as they are) in both interface languages. */
export function bilingual(ref: MessageRef): Bilingual {
  return { en: translateMessage(tEn, ref), zh: translateMessage(tZh, ref) };
}

export type ErrorCode =
  | "bad_request"
  | "validation_failed"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "rate_limited"
  | "service_unavailable"
  | "internal";

export interface ErrorDetails {
  /** Per input field: the message shown next to that field on the page. */
  fields?: Record<string, Bilingual>;
  /** Problems found in result files, as `FILE:LINE:COLUMN message` (the scoring service's words). */
  files?: string[];
  /** Every problem found in an uploaded maps zip, in both languages. */
  problems?: Bilingual[];
  /** A further explanation (e.g. why a decision failed). */
  detail?: Bilingual;
}

/** A refusal: thrown anywhere inside an endpoint, answered as JSON by the endpoint wrapper. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messageRef: MessageRef,
    readonly details?: ErrorDetails,
    readonly headers?: Record<string, string>,
  ) {
    super(messageRef);
  }
}

export const API_MSG = {
  unauthorized: "account:api.unauthorized",
  forbidden: "account:api.forbidden",
  notFound: "account:api.notFound",
  submissionNotFound: "account:api.submissionNotFound",
  jobNotFound: "account:api.jobNotFound",
  rateLimited: "account:api.rateLimited",
  multipartRequired: "account:api.multipartRequired",
  bodyInvalid: "account:api.bodyInvalid",
  invalidId: "account:api.invalidId",
  methodNotAllowed: "account:api.methodNotAllowed",
  internal: "account:api.internal",
} as const;

export function errorBody(code: ErrorCode, ref: MessageRef, details?: ErrorDetails) {
  return { error: { code, message: bilingual(ref), ...(details && Object.keys(details).length ? { details } : {}) } };
}

export function errorResponse(err: ApiError): Response {
  return Response.json(errorBody(err.code, err.messageRef, err.details), {
    status: err.status,
    headers: { "Cache-Control": "no-store", ...err.headers },
  });
}

/** Field errors (message refs by field) in both languages. */
export function fieldDetails(errors: Record<string, string>): Record<string, Bilingual> {
  return Object.fromEntries(Object.entries(errors).map(([field, ref]) => [field, bilingual(ref)]));
}
