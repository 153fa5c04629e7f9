// Text fields, one rule for all of them (docs/security.md "Fields"): every free-text field has a
// maximum length, and control characters (NUL included) are refused with a message instead of
// reaching the database. Multi-line fields keep tab, line feed and carriage return.
import { z } from "zod";
import { messageRef, type MessageRef } from "./messages.ts";

/** C0/C1 controls (Unicode Cc), tab and line breaks excepted: never typed, only smuggled. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** In a single-line field a tab or line break is a control character too. */
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f]/;

export const TEXT_MESSAGES = {
  tooLong: (max: number) => messageRef("forms:tooLong", { max }),
  control: messageRef("forms:controlCharacters"),
  required: messageRef("forms:required"),
} as const;

/**
 * A browser sends every line break of a textarea as CR LF (HTML's form submission) but counts it
 * as one character against maxLength; stored and counted as LF, a field that fits the box fits
 * the rule (a new-user walk had a 1,000-character reason refused without JavaScript).
 */
export const normalizeLineBreaks = (value: string) => value.replace(/\r\n?/g, "\n");

export function hasControlCharacters(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE).test(value);
}

export interface TextRule {
  /** Longest accepted value, in characters (UTF-16 code units, as the browser's maxLength counts). */
  max: number;
  /** Shown when the field is empty; without it the field is optional and reads as "". */
  required?: MessageRef;
  multiline?: boolean;
  /** Message when too long (default: forms:tooLong with the maximum). */
  tooLong?: MessageRef;
  /** Trim surrounding white space before the checks (default true for single-line fields). */
  trim?: boolean;
}

/**
 * A zod schema for one text field. Conform turns an empty field into `undefined`, so a
 * required field says its message through `required_error`; an optional one defaults to "".
 */
export function textField(rule: TextRule): z.ZodType<string, z.ZodTypeDef, unknown> {
  const trim = rule.trim ?? !rule.multiline;
  // z.any() rather than z.string(): conform would turn the empty string back into a missing
  // value inside the pipeline (its coercion rewrites every ZodString it finds).
  const checks = z
    .any()
    .transform((v: string) => (rule.multiline ? normalizeLineBreaks(v) : v))
    .transform((v: string) => (trim ? v.trim() : v))
    .superRefine((v, ctx) => {
      if (hasControlCharacters(v, rule.multiline)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: TEXT_MESSAGES.control });
      else if (v.length > rule.max) ctx.addIssue({ code: z.ZodIssueCode.custom, message: rule.tooLong ?? TEXT_MESSAGES.tooLong(rule.max) });
      else if (rule.required && !v) ctx.addIssue({ code: z.ZodIssueCode.custom, message: rule.required });
    });
  if (rule.required) return z.string({ required_error: rule.required, invalid_type_error: rule.required }).pipe(checks);
  return z.string().default("").pipe(checks);
}

/** The same check for a value read outside a schema (a multipart field, a query parameter). */
export function checkText(value: string, rule: TextRule): MessageRef | undefined {
  const r = textField(rule).safeParse(value === "" && rule.required ? undefined : value);
  return r.success ? undefined : r.error.issues[0]?.message;
}
