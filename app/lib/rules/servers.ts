// The server management forms' rules: the new-server form (name, password, confirmation) and the
// ids a deletion names, with the page's messages as message refs of the admin namespace (the
// original Chinese words, an English translation). Shared by the page and the server
// (app/.server/servers.server.ts), which has the last word.

import { formSchema, parseIds } from "../forms/parse.ts";
import { TEXT_MESSAGES, hasControlCharacters } from "../forms/text.ts";
import { PASSWORD_MAX } from "./accounts.ts";

export const SERVER_MSG = {
  nameRequired: "admin:msg.nameRequired",
  nameTooLong: "admin:msg.nameTooLong",
  passwordRequired: "admin:msg.passwordRequired",
  passwordMismatch: "admin:msg.passwordMismatch",
  created: "admin:msg.created",
  createFailed: "admin:msg.createFailed",
  deleted: "admin:msg.deleted",
  deleteFailed: "admin:msg.deleteFailed",
  /** A deletion that names no server (nothing ticked). */
  selectServers: "admin:msg.selectServers",
  noSuchServer: "admin:msg.noSuchServer",
  // Why the detail page has no telemetry (a ref in ServerTelemetry's reason).
  neverReported: "admin:msg.neverReported",
  offline: "admin:msg.offline",
  noAnswer: "admin:msg.noAnswer",
} as const;

/** A server's name is also the sidecar's SIDECAR_NAME. */
export const SERVER_NAME_MAX = 200;

export type ServerFormErrors = Partial<Record<"username" | "password" | "password2", string>>;

export interface NewServerInput {
  username: string;
  password: string;
  password2: string;
}

/** The new-server form's rules, checked on the server whatever the browser did. */
export function validateNewServer(input: NewServerInput): ServerFormErrors {
  const errors: ServerFormErrors = {};
  const name = input.username.trim();
  if (!name) errors.username = SERVER_MSG.nameRequired;
  else if (name.length > SERVER_NAME_MAX) errors.username = SERVER_MSG.nameTooLong;
  else if (hasControlCharacters(name)) errors.username = TEXT_MESSAGES.control;
  if (!input.password) errors.password = SERVER_MSG.passwordRequired;
  else if (input.password.length > PASSWORD_MAX) errors.password = TEXT_MESSAGES.tooLong(PASSWORD_MAX);
  if (input.password !== input.password2) errors.password2 = SERVER_MSG.passwordMismatch;
  return errors;
}

export const newServerSchema = formSchema({ username: "trim", password: "raw", password2: "raw" }, validateNewServer);

/** The ids a deletion names (one row's button sends `only`, "Delete selected" the ticked `server_ids`). */
export const parseServerIds = (values: readonly unknown[]): number[] | null => parseIds(values);
