// Every action reads its fields through here (docs/security.md "Fields"): a url-encoded form or a
// multipart body already parsed by multer, as one record of strings, refused with 400 and a message
// when any value holds a control character (NUL included; tab and line breaks are typed into
// multi-line fields, so they pass here and single-line rules refuse them). Nothing a browser's
// keyboard cannot produce reaches a rule, a query or the database.
import { hasControlCharacters, TEXT_MESSAGES } from "~/lib/forms/text.ts";
import { readForm, type UploadedFiles } from "./uploads.server.ts";

/** More fields than any form of the site has: a body built to exhaust the parser is refused. */
export const MAX_FIELDS = 200;

/**
 * The 400 answer for a form with control characters or too many fields: a thrown Response, which
 * page routes show in the layout's error page (translated there) and resource routes send as is.
 */
function refuse(message: string): never {
  throw new Response(message, { status: 400, statusText: "Bad Request", headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

export function checkFields(fields: Record<string, string>): Record<string, string> {
  const names = Object.keys(fields);
  if (names.length > MAX_FIELDS) refuse("forms:tooManyFields");
  for (const name of names) if (hasControlCharacters(name) || hasControlCharacters(fields[name], true)) refuse(TEXT_MESSAGES.control);
  return fields;
}

/** The request's fields (first value of each name), checked; with the parsed multipart body's files when there is one. */
export async function readFields(request: Request, uploads?: UploadedFiles): Promise<UploadedFiles> {
  const form = await readForm(request, uploads);
  checkFields(form.fields);
  return form;
}

/** For actions that read a FormData themselves (remix-auth): the same check on a clone of the request. */
export async function checkRequestFields(request: Request): Promise<void> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!contentType.startsWith("application/x-www-form-urlencoded")) return;
  const form = await request.clone().formData();
  const fields: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !(k in fields)) fields[k] = v;
  checkFields(fields);
}

/** The same check on a FormData an action read itself (every value, repeated names included). */
export function checkFormData(form: FormData): FormData {
  let n = 0;
  for (const [name, value] of form.entries()) {
    if (++n > MAX_FIELDS) refuse("forms:tooManyFields");
    if (hasControlCharacters(name) || (typeof value === "string" && hasControlCharacters(value, true))) refuse(TEXT_MESSAGES.control);
  }
  return form;
}
