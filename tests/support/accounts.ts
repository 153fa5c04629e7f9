import { ADMIN, CAPTCHA } from "./stack.ts";
import { Client, location } from "./client.ts";

export async function register(c: Client, username: string, extra: Record<string, string> = {}) {
  const captchaId = await c.captchaId("/signin?tab=register");
  return c.post("/signin", {
    intent: "register",
    account: username,
    pass: "secret-pass-1",
    checkPass: "secret-pass-1",
    phoneNumber: "13800138000",
    verificationCode: CAPTCHA,
    captchaId,
    institute: "Test University",
    authority: "0",
    ...extra,
  });
}

export async function login(c: Client, username: string, password = "secret-pass-1") {
  const captchaId = await c.captchaId("/signin");
  const res = await c.post("/signin", { intent: "login", username, password, code: CAPTCHA, captchaId, redirectTo: "/profile" });
  if (res.status !== 302 || location(res) !== "/profile") throw new Error(`login of ${username} failed: ${res.status} ${await res.text()}`);
  return res;
}

/** A signed-in client for a fresh ordinary user. */
export async function userClient(baseUrl: string, username: string): Promise<Client> {
  const c = new Client(baseUrl);
  await register(c, username);
  await login(c, username);
  return c;
}

/** A signed-in client for the seeded administrator. */
export async function adminClient(baseUrl: string): Promise<Client> {
  const c = new Client(baseUrl);
  await login(c, ADMIN.username, ADMIN.password);
  return c;
}
