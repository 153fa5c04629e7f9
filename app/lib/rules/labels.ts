// The labelling area's rules (/labelPage, docs/datasets.md "Labelling"): a dataset's class list and
// the labels of its pictures, with every message a message ref of the `labels` namespace. One
// constant per limit, used by the page (maxLength, the hints) and by the server (the authority,
// app/.server/labels.server.ts). The class list is typed one class a line, so it works as a plain
// <textarea> without JavaScript.
import { z } from "zod";
import { messageRef } from "../forms/messages.ts";
import { hasControlCharacters, textField } from "../forms/text.ts";
import { PICTURES_PER_PAGE } from "./datasets.ts";

/** Classes a dataset can have: more than any classifier the zoo trains (CIFAR-100 is the largest). */
export const CLASSES_MAX = 100;
/** One class name; pictures.label is VARCHAR(100), so a class always fits as a label. */
export const CLASS_NAME_MAX = 40;
/** The whole class list as typed: every name at its longest plus a line break, with room for blank lines. */
export const CLASS_LIST_MAX = CLASSES_MAX * (CLASS_NAME_MAX + 2);
/** The no-JavaScript form labels one page of pictures at a time (the datasets pages' 16). */
export const LABELS_PER_PAGE = PICTURES_PER_PAGE;
/** Digits 1–9 pick the first nine classes with JavaScript on. */
export const SHORTCUT_CLASSES = 9;

export const LABEL_MSG = {
  noClasses: "labels:msg.noClasses",
  tooManyClasses: messageRef("labels:msg.tooManyClasses", { max: CLASSES_MAX }),
  classTooLong: (name: string) => messageRef("labels:msg.classTooLong", { name: shorten(name), max: CLASS_NAME_MAX }),
  classControl: (line: number) => messageRef("labels:msg.classControl", { line }),
  duplicateClass: (name: string) => messageRef("labels:msg.duplicateClass", { name }),
  classListTooLong: messageRef("labels:msg.classListTooLong", { max: CLASS_LIST_MAX }),
  classesInUse: (names: string[], count: number) => messageRef("labels:msg.classesInUse", { names: names.slice(0, 5).join(", "), count }),
  notAClass: (label: string) => messageRef("labels:msg.notAClass", { label: shorten(label) }),
  tooManyLabels: messageRef("labels:msg.tooManyLabels", { max: LABELS_PER_PAGE }),
  noLabels: "labels:msg.noLabels",
  badPicture: "labels:msg.badPicture",
  notFound: "labels:msg.notFound",
  unknownAction: "labels:msg.unknownAction",
} as const;

/** A value echoed in a message is cut, so a refused 1 MB "label" does not come back whole. */
function shorten(s: string): string {
  return s.length > CLASS_NAME_MAX + 10 ? `${s.slice(0, CLASS_NAME_MAX)}…` : s;
}

/** Two names are the same class when they differ only in case or Unicode form (MariaDB's collation compares them so too). */
export const classKey = (name: string) => name.normalize("NFC").toLocaleLowerCase("en");

/** One class name as typed: trimmed, inner spaces collapsed to one, NFC. */
export const cleanClassName = (raw: string) => raw.trim().replace(/\s+/g, " ").normalize("NFC");

/**
 * The class list from the textarea: one class a line, blank lines ignored, order kept (it is the
 * order of the digit shortcuts). Returns the classes or the first problem, as a message ref.
 */
export function parseClassList(text: string): { ok: true; classes: string[] } | { ok: false; error: string } {
  if (text.length > CLASS_LIST_MAX) return { ok: false, error: LABEL_MSG.classListTooLong };
  const lines = text.split(/\r\n|\r|\n/);
  const classes: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    // A tab inside a line is a control character for a one-line name (forms.server lets it through for textareas).
    if (hasControlCharacters(lines[i])) return { ok: false, error: LABEL_MSG.classControl(i + 1) };
    const name = cleanClassName(lines[i]);
    if (!name) continue;
    if (name.length > CLASS_NAME_MAX) return { ok: false, error: LABEL_MSG.classTooLong(name) };
    if (seen.has(classKey(name))) return { ok: false, error: LABEL_MSG.duplicateClass(name) };
    seen.add(classKey(name));
    classes.push(name);
    if (classes.length > CLASSES_MAX) return { ok: false, error: LABEL_MSG.tooManyClasses };
  }
  if (!classes.length) return { ok: false, error: LABEL_MSG.noClasses };
  return { ok: true, classes };
}

/** A row id sent by a form (hidden field, field name): digits only, within the safe integers. */
const idField = (message: string) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .regex(/^\d{1,15}$/, message)
    .transform(Number)
    .refine((n) => n > 0, message);

export const labelIntentSchema = z.enum(["classes", "labels", "label"], { errorMap: () => ({ message: LABEL_MSG.unknownAction }) });

export const classesSchema = z.object({
  intent: z.literal("classes"),
  datasetId: idField(LABEL_MSG.notFound),
  classes: textField({ max: CLASS_LIST_MAX, multiline: true, tooLong: LABEL_MSG.classListTooLong }),
});

/** One picture labelled (the one-by-one view, a digit shortcut): an empty label clears it. */
export const oneLabelSchema = z.object({
  intent: z.literal("label"),
  datasetId: idField(LABEL_MSG.notFound),
  pictureId: idField(LABEL_MSG.badPicture),
  // Bounded by the server's check: anything that is not exactly one of the classes is refused.
  label: z.string().default(""),
});

/** The name of a picture's select in the page form; its value is a class name, or "" for no label. */
export const labelFieldName = (pictureId: number) => `label-${pictureId}`;
const LABEL_FIELD = /^label-(\d{1,15})$/;

export interface LabelEntry {
  pictureId: number;
  /** null clears the label. */
  label: string | null;
}

/**
 * The page form (no JavaScript): `label-<pictureId>` fields, at most one page of them. Values are
 * not checked against the classes here; the server does that inside its transaction.
 */
export function parseLabelFields(form: FormData): { ok: true; entries: LabelEntry[] } | { ok: false; error: string } {
  const entries: LabelEntry[] = [];
  for (const [name, value] of form.entries()) {
    const m = LABEL_FIELD.exec(name);
    if (!m) continue;
    if (typeof value !== "string") return { ok: false, error: LABEL_MSG.badPicture };
    const pictureId = Number(m[1]);
    if (!Number.isSafeInteger(pictureId) || pictureId <= 0 || entries.some((e) => e.pictureId === pictureId)) return { ok: false, error: LABEL_MSG.badPicture };
    if (entries.length >= LABELS_PER_PAGE) return { ok: false, error: LABEL_MSG.tooManyLabels };
    const label = value.trim();
    if (label.length > CLASS_NAME_MAX) return { ok: false, error: LABEL_MSG.notAClass(label) };
    entries.push({ pictureId, label: label || null });
  }
  if (!entries.length) return { ok: false, error: LABEL_MSG.noLabels };
  return { ok: true, entries };
}

export const labelsPageSchema = z.object({
  intent: z.literal("labels"),
  datasetId: idField(LABEL_MSG.notFound),
  page: z.coerce.number().int().positive().max(1_000_000).catch(1).default(1),
});
