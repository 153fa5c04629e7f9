// POST /algorithm/getResults (docs/crack-detection.md "Runs, results and getResults"): the
// detection rows of a crack-detection model, by model name — the newest completed run of that model
// over a dataset the caller may see. Answers JSON (a plain Response: a resource route's status must
// reach the client as set); the model name is bounded and required (app/lib/rules/inspection.ts
// getResultsSchema).
import type { ActionFunctionArgs } from "@remix-run/node";
import { checkFormData } from "~/.server/forms.server.ts";
import { getResults } from "~/.server/inspection.server.ts";
import { getUser } from "~/.server/session.server.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { getResultsSchema } from "~/lib/rules/inspection.ts";

export async function loader() {
  return Response.json({ error: "Use POST with modelName." }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST with modelName." }, { status: 405, headers: { Allow: "POST" } });
  const viewer = await getUser(request);
  let sent: FormData | Record<string, string>;
  if ((request.headers.get("Content-Type") ?? "").includes("application/json")) {
    const body = (await request.json().catch(() => null)) as { modelName?: unknown } | null;
    sent = { modelName: typeof body?.modelName === "string" ? body.modelName : "" };
  } else sent = checkFormData(await request.formData());
  const checked = parseForm(sent, getResultsSchema);
  if (!checked.ok) return Response.json({ error: checked.errors.modelName }, { status: 400 });
  const { modelName } = checked.value;
  // `skipped`: the run's photos that were not detected, each with its reason (in English, and its key).
  const { run, rows, skipped } = await getResults(modelName, viewer);
  return Response.json({ modelName, run, rows, skipped });
}
