// Throttles that hold (docs/security.md "Throttles"): the admin register code (registration and
// Edit Profile) and the old password in Change password are throttled like log-ins; a successful
// log-in does not reset the address's lock; counters are atomic under parallel guesses; and
// guesses from one address never lock the account's owner out at another. Cases that need their
// own address send from another loopback address (127.0.0.x), so their counters stay apart.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_CODE, startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { login, register, userClient } from "../support/accounts.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
});
afterAll(async () => {
  await stack?.stop();
});

const text = async (res: Response) => (await res.text()).replace(/&#x27;/g, "'");

describe(`throttles on ${process.env.TEST_DB}`, () => {
  it("registration checks the admin code only for a free name, and 5 wrong codes lock the address, even for the right code", async () => {
    const from = new Client(stack.baseUrl, "127.0.0.21");
    await register(new Client(stack.baseUrl), "reg-taken");
    const asAdmin = (account: string, code: string) => register(from, account, { authority: "1", checkAdministrator: code }).then(text);
    // A taken name is answered "taken" whatever the code: no yes/no about the code without an account.
    expect(await asAdmin("reg-taken", "wrong-code")).toContain("This username is already registered.");
    expect(await asAdmin("reg-taken", ADMIN_CODE)).toContain("This username is already registered.");
    for (let i = 0; i < 5; i++) expect(await asAdmin(`reg-guess-${i}`, `wrong-${i}`)).toContain("The admin register code is wrong!");
    const sixth = await asAdmin("reg-guess-right", ADMIN_CODE);
    expect(sixth).toContain("Too many wrong attempts");
    await expect(login(new Client(stack.baseUrl), "reg-guess-right")).rejects.toThrow(/User does not exist/);
    // The same address's count holds in Edit Profile too: a new account brings no new guesses.
    const eve = new Client(stack.baseUrl, "127.0.0.21");
    await register(new Client(stack.baseUrl), "reg-then-profile");
    await login(eve, "reg-then-profile");
    expect(await text(await eve.post("/profile", { intent: "edit", telephone: "", identify: "1", adminCode: ADMIN_CODE }))).toContain(
      "Too many wrong attempts",
    );
    // Another address registers an administrator with the right code.
    const other = await register(new Client(stack.baseUrl, "127.0.0.22"), "reg-admin-ok", { authority: "1", checkAdministrator: ADMIN_CODE });
    expect(other.status).toBe(302);
  });

  it("wrong log-ins from one address do not lock the account's owner out at another", async () => {
    await register(new Client(stack.baseUrl), "lockout-victim");
    const attacker = new Client(stack.baseUrl, "127.0.0.23");
    for (let i = 0; i < 6; i++) await expect(login(attacker, "lockout-victim", `guess-${i}`)).rejects.toThrow();
    await expect(login(attacker, "lockout-victim")).rejects.toThrow(/Too many failed log-ins/);
    await expect(login(new Client(stack.baseUrl, "127.0.0.24"), "lockout-victim")).resolves.toBeTruthy();
  });

  it("guessing the admin register code in Edit Profile locks after 5 wrong codes, even for the right one, and in parallel", async () => {
    const eve = await userClient(stack.baseUrl, "code-guesser");
    const guess = (code: string) => eve.post("/profile", { intent: "edit", telephone: "", identify: "1", adminCode: code });
    // Ten guesses at once: the atomic counter lets at most five through to be checked.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => guess(`wrong-${i}`).then(text)));
    expect(answers.filter((a) => a.includes("Too many wrong attempts")).length).toBeGreaterThanOrEqual(5);
    const right = await text(await guess(ADMIN_CODE));
    expect(right).toContain("Too many wrong attempts");
    expect(await eve.html("/profile")).not.toContain("Administrator");
  });

  it("the old password of Change password shares the log-in lock of the account", async () => {
    const frank = await userClient(stack.baseUrl, "old-pw-guesser");
    const change = (old: string) => frank.post("/profile", { intent: "password", oldPassword: old, newPassword: "pw-654321", confirmPassword: "pw-654321" });
    for (let i = 0; i < 5; i++) expect(await text(await change(`nope-${i}`))).toContain("The old password is wrong!");
    expect(await text(await change("secret-pass-1"))).toContain("Too many wrong attempts");
    // The log-in form of the same account is locked too.
    const c = new Client(stack.baseUrl);
    await expect(login(c, "old-pw-guesser")).rejects.toThrow(/Too many failed log-ins/);
  });

  it("an attacker's own successful log-in does not reset the lock on the address they guess from", async () => {
    await register(new Client(stack.baseUrl), "victim-vic");
    await register(new Client(stack.baseUrl), "attacker-own");
    const attacker = new Client(stack.baseUrl);
    // Spread over many account names, so only the address counter (20) fills.
    let locked = false;
    for (let i = 0; i < 30 && !locked; i++) {
      const captchaId = await attacker.captchaId("/signin");
      const res = await attacker.post("/signin", { intent: "login", username: `victim-vic`, password: `guess-${i}`, code: "test", captchaId, redirectTo: "/" });
      locked = (await text(res)).includes("Too many failed log-ins");
      if (i % 4 === 3 && !locked) await expect(login(new Client(stack.baseUrl), "attacker-own")).resolves.toBeTruthy();
    }
    expect(locked).toBe(true);
    // Logging in to their own account from the same address succeeds or not — but the lock stays.
    await login(new Client(stack.baseUrl), "attacker-own").catch(() => null);
    const captchaId = await attacker.captchaId("/signin");
    const after = await attacker.post("/signin", { intent: "login", username: "victim-vic", password: "guess-x", code: "test", captchaId, redirectTo: "/" });
    expect(await text(after)).toContain("Too many failed log-ins");
  });
});
