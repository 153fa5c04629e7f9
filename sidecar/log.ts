import pino from "pino";

export const logger = pino({ name: "sidecar", level: process.env.LOG_LEVEL ?? "info" });
