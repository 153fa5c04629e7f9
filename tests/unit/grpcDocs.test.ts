// docs/grpc.md "Services" lists every service of the contract and every method of each, so a
// reader finds the whole contract in one table. This reads the .proto files as text (no loader:
// milliseconds) and fails when a service or an rpc is missing from its service's row.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PROTO_DIR = path.join(ROOT, "proto/metarank/v1");
const DOC = fs.readFileSync(path.join(ROOT, "docs/grpc.md"), "utf8");

/** Each `service Name { … }` of the contract with its rpc names, comments stripped. */
function contractServices(): Map<string, string[]> {
  const services = new Map<string, string[]>();
  for (const file of fs.readdirSync(PROTO_DIR).filter((f) => f.endsWith(".proto"))) {
    const text = fs
      .readFileSync(path.join(PROTO_DIR, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
    for (const m of text.matchAll(/\bservice\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
      services.set(
        m[1],
        [...m[2].matchAll(/\brpc\s+(\w+)\s*\(/g)].map((r) => r[1]),
      );
    }
  }
  return services;
}

/** The table row of docs/grpc.md "Services" that starts with the service's name. */
const rowOf = (service: string) => DOC.split("\n").find((line) => line.startsWith(`| \`${service}\` |`));

describe("docs/grpc.md lists the whole contract", () => {
  const services = contractServices();

  it("reads the contract (so an empty parse cannot pass)", () => {
    expect(services.size).toBeGreaterThanOrEqual(12);
    expect(services.get("Inference")).toContain("Explain");
  });

  it("has a row for every service", () => {
    expect([...services.keys()].filter((s) => !rowOf(s))).toEqual([]);
  });

  for (const [service, methods] of services) {
    it(`names every method of ${service} in its row`, () => {
      const row = rowOf(service) ?? "";
      expect(methods.filter((m) => !row.includes(`\`${m}\``))).toEqual([]);
    });
  }
});
