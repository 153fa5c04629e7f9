// Unit and integration tests. The Remix Vite plugin is deliberately not loaded here:
// tests import server modules directly or talk to a built app over HTTP.
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    exclude: ["tests/e2e/**", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
  },
});
