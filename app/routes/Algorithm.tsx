import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { getUser } from "~/.server/session.server.ts";
import { EVALUATION_SETTINGS, EVALUATION_TASKS, generateScript } from "~/lib/evaluationTasks.ts";
import { MSG } from "~/lib/accountRules.ts";
import { Notice } from "~/components/FieldError.tsx";

export const meta: MetaFunction = () => [{ title: "Get Started — Meta-Rank tutorial" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await getUser(request);
  if (url.searchParams.get("submit")) {
    if (user) throw redirect("/cifar");
    return { selected: [], script: null, warning: MSG.loginFirst, anchor: "submit" };
  }
  const selected = url.searchParams.getAll("task").filter((t) => (EVALUATION_TASKS as readonly string[]).includes(t));
  if (url.searchParams.get("generate")) {
    if (!selected.length) return { selected, script: null, warning: "Please select at least one task!!", anchor: "generator" };
    return { selected, script: generateScript(selected), warning: null, anchor: "generator" };
  }
  return { selected, script: null, warning: null, anchor: null };
}

const SAMPLE = [
  { author: "Meta-Rank team", institute: "XAI Lab", algorithm: "IntegratedGradients", score: "0.8125", rank: 1 },
  { author: "Meta-Rank team", institute: "XAI Lab", algorithm: "GradCAM", score: "0.4311", rank: 2 },
  { author: "Meta-Rank team", institute: "XAI Lab", algorithm: "Saliency", score: "-0.2290", rank: 3 },
];

export default function GetStarted() {
  const { selected, script, warning, anchor } = useLoaderData<typeof loader>();
  return (
    <article className="card tutorial">
      <h1>Get Started</h1>
      <h2>1. How Meta-Rank evaluates an attribution method</h2>
      <p>
        An <b>attribution method</b> assigns each input pixel a relevance for the model's decision. Sorting the pixels (in 2×2 patches) by relevance gives an{" "}
        <b>ordered pixel sequence</b>. Removing patches in that order — <b>most relevant first (MoRF)</b> or <b>least relevant first (LeRF)</b> — and replacing
        them with a filler value, the model's accuracy drops. A good method makes accuracy fall fast under MoRF and slowly under LeRF; the area under the
        accuracy curve is the case score.
      </p>
      <p>
        The ranking of methods depends on <b>environmental factors</b>: the dataset, the model architecture and the masking order. Each combination is a{" "}
        <b>task</b>; 11 tasks × 2 orders give 22 cases. Pairwise comparisons over all cases are fused into one metascore, and new submissions join the board by{" "}
        <b>history fusion</b>, giving one leaderboard.
      </p>
      <h2>2. Installation</h2>
      <pre className="script">{`conda create -n metarank python=3.7.16
conda activate metarank
pip install torch==1.13.1 torchvision==0.14.1 captum==0.6.0 numpy==1.21.6 pandas==1.3.5
# a CUDA 11.7 GPU build of PyTorch is recommended`}</pre>
      <h2>3. Datasets and checkpoints</h2>
      <p>
        The evaluation uses NWPU-RESISC45, Food-101, ImageNet (ILSVRC2012) and Places365 with ResNet-18/50, Inception-v4 and VGG-19 checkpoints. See{" "}
        <Link to="/datasetPreview">DATASETS</Link> for each dataset's facts and reference links. This server also evaluates methods itself on data it ships (see
        LEADERBOARD).
      </p>
      <h2>4. Plug in your algorithm</h2>
      <ol>
        <li>
          Implement <code>attribute(model, images, targets) → tensor</code> with the same shape as the images.
        </li>
        <li>
          Register it in <code>methods/__init__.py</code> under a name, e.g. <code>my_method</code>.
        </li>
        <li>
          Run the script below; it writes <code>morf.csv</code> and <code>lerf.csv</code> (one row per task, accuracy at each removal fraction).
        </li>
      </ol>
      <h2>5. Sample result</h2>
      <table className="plain">
        <thead>
          <tr>
            <th>author</th>
            <th>institute</th>
            <th>algorithm</th>
            <th>MetaScore</th>
            <th>ranking</th>
          </tr>
        </thead>
        <tbody>
          {SAMPLE.map((r) => (
            <tr key={r.algorithm}>
              <td>{r.author}</td>
              <td>{r.institute}</td>
              <td>{r.algorithm}</td>
              <td>{r.score}</td>
              <td>{r.rank}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 id="generator">6. Script generator</h2>
      <p className="muted">
        Evaluation settings: patch size {EVALUATION_SETTINGS.patchSize}, filler values {EVALUATION_SETTINGS.filler.join(" ")}, skip factor{" "}
        {EVALUATION_SETTINGS.skipFactor}.
      </p>
      <Form method="get" preventScrollReset aria-label="Script generator">
        <input type="hidden" name="generate" value="1" />
        <div
          className="task-grid"
          style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(230px, 1fr))", gap: ".4rem", marginBottom: "1rem" }}
        >
          {EVALUATION_TASKS.map((t) => (
            <label key={t} style={{ display: "flex", gap: ".5rem", alignItems: "center" }}>
              <input type="checkbox" name="task" value={t} defaultChecked={selected.includes(t)} /> {t}
            </label>
          ))}
        </div>
        <Button type="submit" label="generate script" icon="pi pi-code" />
      </Form>
      {warning && anchor === "generator" ? (
        <div style={{ marginTop: "1rem" }}>
          <Notice kind="warn">{warning}</Notice>
        </div>
      ) : null}
      {script ? (
        <pre className="script" data-testid="generated-script" style={{ marginTop: "1rem" }}>
          {script}
        </pre>
      ) : null}
      <h2 id="submit">7. Submit</h2>
      <Form method="get" aria-label="Submit">
        <input type="hidden" name="submit" value="1" />
        <Button type="submit" label="submit" icon="pi pi-upload" />
      </Form>
      {warning && anchor === "submit" ? (
        <div style={{ marginTop: "1rem" }}>
          <Notice kind="warn">{warning}</Notice>
        </div>
      ) : null}
    </article>
  );
}
