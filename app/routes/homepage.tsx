import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { chooseSuite, listSuites } from "~/.server/board.server.ts";
import { Notice } from "~/components/FieldError.tsx";

export const meta: MetaFunction = () => [
  { title: "Meta-Rank — a unified benchmark for attribution methods" },
  { name: "description", content: "Meta-Rank ranks image-attribution (XAI) methods by one metascore over many datasets, models and masking orders." },
];

export async function loader() {
  const suite = chooseSuite(await listSuites());
  if (!suite || suite.methods === 0) return { board: null };
  // "fashionmnist_resnet" → dataset "fashionmnist", model "resnet": what the board really covers.
  const datasets = new Set(suite.tasks.map((t) => t.split("_")[0]));
  const models = new Set(suite.tasks.map((t) => t.split("_").slice(1).join("_")));
  return { board: { id: suite.id, name: suite.name, tasks: suite.tasks.length, datasets: datasets.size, models: models.size, methods: suite.methods } };
}

export default function Homepage() {
  const { board } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <>
      <section className="hero">
        <h1>Meta-Rank</h1>
        <p className="tagline">
          On the evaluation consistency of attribution-based explanations: one metascore for attribution methods, fused over datasets, models and masking
          orders.
        </p>
        <div className="hero-actions">
          <Link to="/Algorithm" className="p-button p-component">
            <i className="pi pi-book" style={{ marginRight: ".5rem" }} /> Tutorial
          </Link>
          {/* A GET link so it works without JavaScript; the page answers with the seed's notice. */}
          <Link to="?paper=1" className="p-button p-button-outlined p-component" preventScrollReset>
            <i className="pi pi-file" style={{ marginRight: ".5rem" }} /> Paper
          </Link>
        </div>
        {params.get("paper") ? (
          <div className="narrow" style={{ marginTop: "1rem" }}>
            <Notice kind="info">The paper has not been published yet</Notice>
          </div>
        ) : null}
      </section>
      <div className="grid-2">
        <article className="card">
          <h2>Motivation</h2>
          <p>
            Attribution methods explain an image classifier by scoring every pixel. Whether a method is "good" depends on how it is evaluated: the same method
            can rank first on one dataset, model or masking order and last on another. Meta-Rank measures that inconsistency and resolves it into one ranking.
          </p>
        </article>
        <article className="card">
          <h2>Unified evaluation framework</h2>
          <p>
            Pixels are ordered by attribution and removed patch by patch, most relevant first (MoRF) or least relevant first (LeRF). The model's accuracy after
            each removal step gives a curve per task; the area under it is the case score. Pairwise wins across all cases become a metascore κ by a logit model,
            and new methods join by history fusion without recomputing the board.
          </p>
        </article>
        <article className="card">
          <h2>Experiments</h2>
          <p>
            The original Meta-Rank leaderboard covers four datasets, three models, two masking orders and 8 classic attribution methods, with 22 tasks per
            method.
          </p>
          {board ? (
            <p data-testid="board-coverage">
              The leaderboard on this server is computed by the platform itself, on models it trained on data it ships: {board.datasets} datasets,{" "}
              {board.models} models, two masking orders and {board.methods} attribution methods, with {board.tasks} tasks ({board.tasks * 2} cases) per method.
              See the <Link to={`/leaderboard?suite=${encodeURIComponent(board.id)}`}>LEADERBOARD</Link> for the details.
            </p>
          ) : (
            <p data-testid="board-coverage">
              No baseline board is installed on this server yet; the <Link to="/leaderboard">LEADERBOARD</Link> explains how an operator imports one.
            </p>
          )}
        </article>
        <article className="card">
          <h2>Flexible usage</h2>
          <p>
            Run the evaluation for your own method, upload the MoRF and LeRF result files, see your current metascore and rank against the classic methods, and
            submit it for inclusion. Try live demos of Integrated Gradients, GradCAM, Occlusion and more on real images.
          </p>
        </article>
      </div>
    </>
  );
}
