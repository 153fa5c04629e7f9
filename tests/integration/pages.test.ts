// Public pages rendered by the real app: landing, tutorial with its script generator, documentation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe(`public pages on ${process.env.TEST_DB}`, () => {
  it("/ goes to /homepage; the Paper button answers with the seed's notice", async () => {
    const c = new Client(stack.baseUrl);
    expect(location(await c.get("/"))).toBe("/homepage");
    const home = await c.html("/homepage");
    expect(home).toContain('href="/Algorithm"');
    expect(home).not.toContain("The paper has not been published yet");
    expect(await c.html("/homepage?paper=1")).toContain("The paper has not been published yet");
    // The sentence about the board says what this server's board covers.
    expect(home).toMatch(/data-testid="board-coverage"/);
  });

  it("the script generator needs a task and prints the chosen ones with the seed's settings", async () => {
    const c = new Client(stack.baseUrl);
    expect(await c.html("/Algorithm?generate=1")).toContain("Please select at least one task!!");
    const html = await c.html("/Algorithm?generate=1&task=food_vgg19&task=places365_resnet50");
    const script = html.slice(html.indexOf('data-testid="generated-script"'));
    expect(script).toContain("--task food_vgg19");
    expect(script).toContain("--task places365_resnet50");
    expect(script).not.toContain("--task imagenet_vgg19");
    expect(script).toContain("--patch-size 2 --filler 0 0 0 --skip-factor 0.1");
  });

  it("the tutorial's submit button: log in first, or go to /cifar", async () => {
    const anon = new Client(stack.baseUrl);
    expect(await anon.html("/Algorithm?submit=1")).toContain("Please log in first.");
    const user = await userClient(stack.baseUrl, "tutorial-reader");
    expect(location(await user.get("/Algorithm?submit=1"))).toBe("/cifar");
  });

  it("the documentation has five sections and a playable video", async () => {
    const c = new Client(stack.baseUrl);
    const html = await c.html("/document");
    for (const id of ["concepts", "datasets", "algorithms", "workflow", "users"]) expect(html).toContain(`href="#${id}"`);
    const src = html.match(/<source src="([^"]+)" type="video\/webm"/)?.[1];
    expect(src).toBe("/doc/intro.webm");
    const video = await c.get(src!);
    expect(video.status).toBe(200);
    const bytes = new Uint8Array(await video.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]); // EBML magic: a real WebM file
    // Captions in both languages, cue for cue.
    const cues = async (lang: string) => {
      expect(html).toContain(`src="/doc/intro.${lang}.vtt"`);
      const vtt = await (await c.get(`/doc/intro.${lang}.vtt`)).text();
      expect(vtt.startsWith("WEBVTT")).toBe(true);
      return vtt.match(/-->/g)?.length ?? 0;
    };
    const english = await cues("en");
    expect(english).toBeGreaterThan(3);
    expect(await cues("zh")).toBe(english);
  });

  it("unknown pages are a 404 page, not a crash", async () => {
    const res = await new Client(stack.baseUrl).get("/no-such-page");
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("404");
  });
});
