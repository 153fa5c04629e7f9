// Unit tests by default; with TEST_DB=sqlite|mariadb only the integration and security
// tests, which start the real app and sidecar processes against that database
// (tests/support/stack.ts), so `make test` runs them once per database.
// The Remix Vite plugin is deliberately not loaded: tests import server modules directly
// or talk to the built app over HTTP.
import { defineConfig } from "vitest/config";

const integration = Boolean(process.env.TEST_DB);

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: integration ? ["tests/integration/**/*.test.ts", "tests/security/**/*.test.ts"] : ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    exclude: integration ? ["node_modules/**"] : ["tests/e2e/**", "tests/integration/**", "tests/security/**", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
