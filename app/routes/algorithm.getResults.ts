// POST /algorithm/getResults (docs/crack-detection.md "Runs, results and getResults"): the
// detection rows of a crack-detection model, by model name — the newest completed run of that model
// over a dataset the caller may see. Answers JSON (a plain Response: a resource route's status must
// reach the client as set); the model name is bounded and required.
import type { ActionFunctionArgs } from "@remix-run/node";
import { checkFormData } from "~/.server/forms.server.ts";
import { getResults } from "~/.server/inspection.server.ts";
import { getUser } from "~/.server/session.server.ts";

const MODEL_NAME_MAX = 100;

export async function loader() {
  return Response.json({ error: "Use POST with modelName." }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST with modelName." }, { status: 405, headers: { Allow: "POST" } });
  const viewer = await getUser(request);
  let modelName = "";
  if ((request.headers.get("Content-Type") ?? "").includes("application/json")) {
    const body = (await request.json().catch(() => null)) as { modelName?: unknown } | null;
    modelName = typeof body?.modelName === "string" ? body.modelName : "";
  } else modelName = String(checkFormData(await request.formData()).get("modelName") ?? "");
  modelName = modelName.trim();
  if (!modelName || modelName.length > MODEL_NAME_MAX)
    return Response.json({ error: `modelName is required (at most ${MODEL_NAME_MAX} characters).` }, { status: 400 });
  // `skipped`: the run's photos that were not detected, each with its reason (in English, and its key).
  const { run, rows, skipped } = await getResults(modelName, viewer);
  return Response.json({ modelName, run, rows, skipped });
}
