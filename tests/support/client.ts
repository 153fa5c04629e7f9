// A tiny HTTP client with a cookie jar, speaking to the app like a browser without JavaScript.
import http from "node:http";

export class Client {
  cookies = new Map<string, string>();
  /**
   * `localAddress` sends from another loopback address (127.0.0.2, …: all of 127/8 is this
   * machine), so a test can be two visitors the app tells apart by address (throttles).
   */
  constructor(
    readonly baseUrl: string,
    readonly localAddress?: string,
  ) {}

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (!value || /max-age=0/i.test(c) || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("Cookie", this.cookieHeader());
    const res = this.localAddress ? await this.fromAddress(path, init, headers) : await fetch(this.baseUrl + path, { ...init, headers, redirect: "manual" });
    this.store(res);
    return res;
  }

  /** The request over node:http from `localAddress` (fetch cannot choose its source address). */
  private async fromAddress(path: string, init: RequestInit, headers: Headers): Promise<Response> {
    // Let fetch's own Request encode the body and set its type, then send those bytes.
    const prepared = new Request(this.baseUrl + path, { ...init, headers });
    const body = init.body ? Buffer.from(await prepared.arrayBuffer()) : null;
    if (body) prepared.headers.set("Content-Length", String(body.length));
    return new Promise((resolve, reject) => {
      const req = http.request(
        this.baseUrl + path,
        { method: prepared.method, headers: Object.fromEntries(prepared.headers), localAddress: this.localAddress },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const out = new Headers();
            for (const [k, v] of Object.entries(res.headers)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, one);
            const status = res.statusCode ?? 500;
            resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: out }));
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body ?? undefined);
    });
  }

  get(path: string) {
    return this.request(path);
  }

  /** POSTs a form; a plain object is sent url-encoded, FormData as multipart. */
  post(path: string, body: Record<string, string> | FormData) {
    return this.request(path, { method: "POST", body: body instanceof FormData ? body : new URLSearchParams(body) });
  }

  async html(path: string): Promise<string> {
    const res = await this.get(path);
    return res.text();
  }

  /** The captcha id of a page with a captcha (the answer is CAPTCHA_FIXED_ANSWER in tests). */
  async captchaId(path = "/signin"): Promise<string> {
    const html = await this.html(path);
    const m = html.match(/name="captchaId" value="([0-9a-f]+)"/);
    if (!m) throw new Error(`no captcha on ${path}`);
    return m[1];
  }
}

export const location = (res: Response) => {
  const l = res.headers.get("location");
  return l ? new URL(l, "http://x").pathname + new URL(l, "http://x").search : null;
};

/** Text of every role="alert" element: the messages a person sees next to fields. */
export const alerts = (html: string) => [...html.matchAll(/role="alert"[^>]*>([^<]*)</g)].map((m) => m[1]);
