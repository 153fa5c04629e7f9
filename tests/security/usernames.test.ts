// Usernames: control and format characters are refused, and look-alikes of an
// existing name (case, full-width and compatibility forms) count as taken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import { Client, alerts } from "../support/client.ts";
import { register } from "../support/accounts.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
});
afterAll(async () => {
  await stack?.stop();
});

const messages = async (res: Response) => alerts(await res.text()).join(" ");

describe(`usernames on ${process.env.TEST_DB}`, () => {
  it("look-alikes of an existing name are refused as taken", async () => {
    expect((await register(new Client(stack.baseUrl), "Alice-Lookalike")).status).toBe(302);
    for (const twin of ["alice-lookalike", "ALICE-LOOKALIKE", "Ａｌｉｃｅ-Ｌｏｏｋａｌｉｋｅ"]) {
      const res = await register(new Client(stack.baseUrl), twin);
      expect(res.status, twin).toBe(400);
      expect(await messages(res), twin).toContain("This username is already registered.");
    }
  });

  it("control and invisible format characters are refused with a message", async () => {
    for (const name of ["zero\u200bwidth", "tab\there", "rtl\u202eevil"]) {
      const res = await register(new Client(stack.baseUrl), name);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(await messages(res), JSON.stringify(name)).toContain("control or invisible formatting characters");
    }
    // NUL never reaches the username rule: the whole form is refused (app/.server/forms.server.ts).
    const nul = await register(new Client(stack.baseUrl), "nul\u0000");
    expect(nul.status).toBe(400);
    expect(await nul.text()).toContain("control characters (such as NUL)");
  });
});
