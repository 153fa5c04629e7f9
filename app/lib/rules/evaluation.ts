// The evaluation run form's rules (/admin/evaluations: suite, method, images per task, optional
// JSON parameters) and the evaluation area's messages, as message refs of the admin namespace.
// Form checks only: what a suite and a method accept is the sidecar's to say (its registry).
// Shared by the page and the server (app/.server/evaluations.server.ts).

import { messageRef } from "../forms/messages.ts";
import { formSchema, parseForm } from "../forms/parse.ts";
import { TEXT_MESSAGES, hasControlCharacters } from "../forms/text.ts";

/** The form's bounds; the sidecar narrows the upper one to the suite's evaluation split. */
export const MIN_LIMIT = 1;
export const MAX_LIMIT = 1000;
/** Suite ids and method names are short identifiers. */
export const NAME_MAX = 100;
export const PARAMS_MAX = 10_000;

export const MSG = {
  suiteRequired: "admin:runs.msg.suiteRequired",
  methodRequired: "admin:runs.msg.methodRequired",
  limitRange: messageRef("admin:runs.msg.limitRange", { min: MIN_LIMIT, max: MAX_LIMIT }),
  paramsJson: "admin:runs.msg.paramsJson",
  started: "admin:runs.msg.started",
  queueDown: "admin:runs.msg.queueDown",
  cancelled: "admin:runs.msg.cancelled",
  notCancellable: "admin:runs.msg.notCancellable",
  catalogDown: "admin:runs.msg.catalogDown",
  appRestarted: "admin:runs.msg.appRestarted",
  noFile: "admin:runs.msg.noFile",
} as const;

/** A run's error after an administrator cancelled it (kept on the row, translated where shown). */
export const cancelledBy = (username: string) => messageRef("admin:runs.msg.cancelledBy", { user: username });

export interface StartInput {
  suite: string;
  method: string;
  limit: string;
  params: string;
}
export type StartErrors = Partial<Record<keyof StartInput | "form", string>>;
export type StartValue = { suite: string; method: string; limit: number; params: string };

/** Any key or string value of parsed JSON with a control character (JSON.stringify would escape it again). */
function holdsControlCharacters(value: unknown): boolean {
  if (typeof value === "string") return hasControlCharacters(value, true);
  if (Array.isArray(value)) return value.some(holdsControlCharacters);
  if (value && typeof value === "object") return Object.entries(value).some(([k, v]) => hasControlCharacters(k, true) || holdsControlCharacters(v));
  return false;
}

const badName = (v: string) => !v || v.length > NAME_MAX || hasControlCharacters(v);

/** The form's rules: each field's message, all at once. */
export function validateStartInput(input: StartInput): StartErrors {
  const errors: StartErrors = {};
  const limit = input.limit.trim();
  const params = input.params.trim();
  if (badName(input.suite.trim())) errors.suite = MSG.suiteRequired;
  if (badName(input.method.trim())) errors.method = MSG.methodRequired;
  if (!/^\d{1,7}$/.test(limit) || Number(limit) < MIN_LIMIT || Number(limit) > MAX_LIMIT) errors.limit = MSG.limitRange;
  if (params.length > PARAMS_MAX) errors.params = TEXT_MESSAGES.tooLong(PARAMS_MAX);
  else if (params) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(params);
    } catch {
      parsed = undefined;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) errors.params = MSG.paramsJson;
    // A JSON escape (\u0000) would bring back the control characters the request check refused.
    else if (holdsControlCharacters(parsed)) errors.params = TEXT_MESSAGES.control;
  }
  return errors;
}

/** The form's fields read through its schema (parseForm(form, startSchema)). */
export const startSchema = formSchema({ suite: "trim", method: "trim", limit: "trim", params: "trim" }, validateStartInput);

/** The fields read through the same schema (startEvaluation, whatever called it): trimmed names, the limit as a number. */
export function checkStartInput(input: StartInput): { ok: true; value: StartValue } | { ok: false; errors: StartErrors } {
  const parsed = parseForm({ ...input }, startSchema);
  return parsed.ok ? { ok: true, value: { ...parsed.value, limit: Number(parsed.value.limit) } } : parsed;
}
