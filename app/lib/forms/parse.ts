// Reading a form with its area's zod schema, on the server (the authority) and in the browser
// (earlier feedback), through conform so the same schema drives both (docs/architecture.md,
// "Rules per area"). Errors are message refs (./messages.ts), one per field.
import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";
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
