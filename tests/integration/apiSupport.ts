// Helpers of the /api/v1 contract tests (api.test.ts): the OpenAPI document as ajv validators
// (JSON Schema 2020-12, which OpenAPI 3.1 uses), the route files the document must describe, a
// token made through the real /profile page, and result files for any suite.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { routeUrls } from "../support/routes.ts";
import type { Client } from "../support/client.ts";

type Json = Record<string, unknown>;
export type OpenApi = { openapi: string; paths: Record<string, Record<string, Json>>; components: { schemas: Json; responses: Record<string, Json> } };

/** The /api/v1 paths the route config (app/routes.ts) maps to modules: `api/v1/suites/:id/score` → `/api/v1/suites/{id}/score`. */
export function routePaths(): string[] {
  return routeUrls()
    .map((r) => r.url)
    .filter((url) => url.startsWith("/api/v1/"))
    .map((url) => url.replace(/:(\w+)/g, "{$1}"))
    .sort();
}

/** Schema refs of the document pointed at the ajv schema that holds its components. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", "openapi-components#/$defs/") : rewriteRefs(v),
      ]),
    );
  }
  return value;
}

export interface Operation {
  template: string;
  method: string;
  responses: Record<string, Json>;
}

/** Validates API answers against the document: every status must be documented with a JSON schema the body meets. */
export class Contract {
  private ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  private cache = new Map<string, ValidateFunction>();
  /** "GET /api/v1/suites" → statuses seen and validated. */
  readonly seen = new Map<string, Set<string>>();

  constructor(readonly doc: OpenApi) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: "openapi-components", $defs: rewriteRefs(doc.components.schemas) as Json });
  }

  operation(method: string, pathname: string): Operation | null {
    for (const [template, item] of Object.entries(this.doc.paths)) {
      const re = new RegExp("^" + template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+") + "$");
      const op = item[method.toLowerCase()] as { responses?: Record<string, Json> } | undefined;
      if (re.test(pathname) && op?.responses) return { template, method: method.toUpperCase(), responses: op.responses };
    }
    return null;
  }

  /** The schema of one documented answer (following a components/responses $ref). */
  private validator(op: Operation, status: string): ValidateFunction {
    const key = `${op.method} ${op.template} ${status}`;
    let v = this.cache.get(key);
    if (v) return v;
    let response = op.responses[status];
    if (!response) throw new Error(`${op.method} ${op.template} answered ${status}, which the OpenAPI document does not describe`);
    const refName = typeof response.$ref === "string" ? response.$ref.replace("#/components/responses/", "") : null;
    if (refName) response = this.doc.components.responses[refName];
    const schema = (response.content as Record<string, { schema: Json }> | undefined)?.["application/json"]?.schema;
    if (!schema) throw new Error(`${key}: no application/json schema in the document`);
    v = this.ajv.compile(rewriteRefs(schema) as Json);
    this.cache.set(key, v);
    return v;
  }

  /** Checks one answer; returns its parsed body. */
  check(method: string, pathname: string, status: number, contentType: string | null, body: unknown): void {
    const op = this.operation(method, pathname);
    if (!op) throw new Error(`${method} ${pathname} is not in the OpenAPI document`);
    if (!contentType?.startsWith("application/json")) throw new Error(`${method} ${pathname} answered ${status} with ${contentType}, not JSON`);
    const v = this.validator(op, String(status));
    if (!v(body))
      throw new Error(
        `${method} ${pathname} ${status}: body does not match the document: ${this.ajv.errorsText(v.errors)}\n${JSON.stringify(body).slice(0, 800)}`,
      );
    const k = `${op.method} ${op.template}`;
    if (!this.seen.has(k)) this.seen.set(k, new Set());
    this.seen.get(k)!.add(String(status));
  }

  /** Every operation of the document, as "METHOD template". */
  operations(): string[] {
    return Object.entries(this.doc.paths).flatMap(([template, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${template}`));
  }
}

/** Creates a token on /profile as a person would (no JavaScript) and returns its secret. */
export async function createTokenOnProfile(c: Client, name: string): Promise<{ secret: string; html: string }> {
  const res = await c.post("/profile", { intent: "token-create", name });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`token creation answered ${res.status}: ${html.slice(0, 400)}`);
  const m = html.match(/mr_[A-Za-z0-9_-]{43}/);
  if (!m) throw new Error("no token secret on the page after creating one");
  return { secret: m[0], html };
}

/** A valid result file for a suite: each task's accuracy falls linearly to `end` over the grid. */
export function suiteCsv(tasks: string[], grid: number[], end: number): string {
  const lines = [["task", ...grid].join(",")];
  tasks.forEach((task, i) => {
    const e = Math.min(0.89, Math.max(0, end + i / 1000));
    lines.push([task, ...grid.map((g) => (0.9 + (e - 0.9) * g).toFixed(4))].join(","));
  });
  return lines.join("\n") + "\n";
}
