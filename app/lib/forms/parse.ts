// Reading a form with its area's zod schema, on the server (the authority) and in the browser
// (earlier feedback), through conform so the same schema drives both (docs/architecture.md,
// "Rules per area"). Errors are message refs (./messages.ts), one per field.
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import type { MessageRef } from "./messages.ts";

export type FieldErrors = Partial<Record<string, MessageRef>>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** `source`: the request's FormData, URLSearchParams, or the fields of a parsed multipart body. */
export function parseForm<S extends z.ZodTypeAny>(source: FormData | URLSearchParams | Record<string, string>, schema: S): Parsed<z.output<S>> {
  const formData = source instanceof FormData || source instanceof URLSearchParams ? source : toFormData(source);
  const submission = parseWithZod(formData, { schema });
  if (submission.status === "success") return { ok: true, value: submission.value as z.output<S> };
  const errors: FieldErrors = {};
  for (const [name, messages] of Object.entries(submission.error ?? {})) if (messages?.length) errors[name || "form"] = messages[0];
  return { ok: false, errors };
}

function toFormData(fields: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

/**
 * How a field of a `formSchema` is read: trimmed (single-line text), exactly as sent (passwords,
 * codes), or every value sent under the name in order ("list": repeated fields, checkboxes).
 */
export type FieldReading = "trim" | "raw" | "list";

/** A form's values as its check reads them: a string per field, the values of a "list" field as strings. */
export type FormValues<F extends Record<string, FieldReading>> = { [P in keyof F]: F[P] extends "list" ? string[] : string };

/**
 * A "list" field: every value as sent (an empty one too, which conform would drop), a value that
 * is not text (a file) read as "", so the form's own check refuses it.
 */
const listField = z.unknown().transform((sent) => (sent === undefined ? [] : Array.isArray(sent) ? sent : [sent]).map((v) => (typeof v === "string" ? v : "")));

const textReading = (reading: "trim" | "raw") =>
  z
    .string()
    .default("")
    .transform((v) => (reading === "trim" ? v.trim() : v));

/** A family of fields named `<group>.<a>.<b>`, which conform reads as nested objects: back to flat names, each its last value. */
function flattenGroup(prefix: string, value: unknown, out: Record<string, string>) {
  if (typeof value === "string") out[prefix] = value;
  else if (Array.isArray(value)) flattenGroup(prefix, value.at(-1), out);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) flattenGroup(`${prefix}.${k}`, v, out);
}

/**
 * A form's schema from its field names and one check over the whole form: every field reads
 * as a string (missing or empty = ""), a "list" field as its values, then `check` returns each
 * field's message, cross-field rules (a password and its confirmation) included. The check always
 * runs, so a form shows all of its errors at once; the same `check` gives the browser's on-blur
 * feedback field by field. `groups`: prefixes of field families whose names the form learns at
 * run time (the advanced options `arg.<category>.<name>` of the create-task form); every field
 * sent under one reaches `check` and the value under its own name.
 */
export function formSchema<F extends Record<string, FieldReading>>(
  fields: F,
  check: (values: FormValues<F> & Partial<Record<`${string}.${string}`, string>>) => FieldErrors,
  groups: readonly string[] = [],
) {
  const shape = Object.fromEntries(Object.entries(fields).map(([name, reading]) => [name, reading === "list" ? listField : textReading(reading)])) as Record<
    string,
    z.ZodTypeAny
  >;
  const grouped = Object.fromEntries(groups.map((g) => [g, z.unknown()]));
  return z
    .object({ ...shape, ...grouped })
    .transform((read) => {
      const values: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(read)) {
        if (groups.includes(name)) flattenGroup(name, value, values as Record<string, string>);
        else values[name] = value as string | string[];
      }
      return values as FormValues<F> & Partial<Record<`${string}.${string}`, string>>;
    })
    .superRefine((values, ctx) => {
      for (const [name, message] of Object.entries(check(values)))
        if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, path: name === "form" ? [] : [name], message });
    });
}

/** More than any page lists: a form naming thousands of ids is not a selection. */
export const MAX_IDS = 1000;

/** The ids a form names (repeated fields, checkboxes): positive whole numbers, each once; null when any value is not one. */
export function parseIds(values: readonly unknown[], max = MAX_IDS): number[] | null {
  if (values.length > max) return null;
  const ids: number[] = [];
  for (const v of values) {
    if (typeof v !== "string" || !/^\d{1,9}$/.test(v) || Number(v) <= 0) return null;
    if (!ids.includes(Number(v))) ids.push(Number(v));
  }
  return ids;
}
