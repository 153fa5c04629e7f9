// The web app's one pino logger. Modules take a named child (`logger("queue")`); the root is
// created on first use with LOG_LEVEL, so a module that only imports this file sets nothing up.
// Redaction keeps secrets out of logs whatever a caller passes (docs/architecture.md, "Logs").
import pino, { type Logger } from "pino";

let root: Logger | null = null;

export function rootLogger(): Logger {
  return (root ??= pino({
    name: "web",
    level: process.env.LOG_LEVEL ?? "info",
    redact: {
      paths: ["password", "*.password", "captcha", "*.captcha", "cookie", "*.cookie", "headers.cookie", "authorization", "*.authorization"],
      censor: "[redacted]",
    },
  }));
}

const children = new Map<string, Logger>();

/** A child logger named after the area that logs ("queue", "evaluations", …). */
export function logger(name: string): Logger {
  let child = children.get(name);
  if (!child) {
    child = rootLogger().child({ area: name });
    children.set(name, child);
  }
  return child;
}
