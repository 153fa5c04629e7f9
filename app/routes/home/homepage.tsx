import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Trans, useTranslation } from "react-i18next";
import { chooseSuite, countBaselines, listSuites } from "~/.server/board.server.ts";
import { i18nServer, requestLanguage } from "~/.server/i18n.server.ts";
import { fragmentKey, sharedData } from "~/.server/fragments.server.tsx";
import { Notice } from "~/components/FieldError.tsx";

export const handle = { i18n: "home" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.meta.title ?? "Meta-Rank" },
  { name: "description", content: data?.meta.description ?? "" },
];

/** What the page shows: the same for every viewer in one language (kept per content version, app/.server/fragments.server.tsx). */
async function loadHome(request: Request) {
  const t = await i18nServer.getFixedT(request, "home");
  const meta = { title: t("metaTitle"), description: t("metaDescription") };
  const suite = chooseSuite(await listSuites(await requestLanguage(request)));
  // The sentence is about what the platform computed itself: approved submissions are not counted.
  const baselines = suite && suite.methods > 0 ? await countBaselines(suite.id) : 0;
  if (!suite || baselines === 0) return { meta, board: null };
  // "fashionmnist_resnet" → dataset "fashionmnist", model "resnet": what the board really covers.
  const datasets = new Set(suite.tasks.map((t) => t.split("_")[0]));
  const models = new Set(suite.tasks.map((t) => t.split("_").slice(1).join("_")));
  return { meta, board: { id: suite.id, name: suite.name, tasks: suite.tasks.length, datasets: datasets.size, models: models.size, methods: baselines } };
}

export async function loader({ request }: LoaderFunctionArgs) {
  return sharedData(fragmentKey("homepage-data", await requestLanguage(request), null), () => loadHome(request));
}

export default function Homepage() {
  const { board } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const { t } = useTranslation("home");
  return (
    <>
      <section className="hero">
        <h1>Meta-Rank</h1>
        <p className="tagline">{t("tagline")}</p>
        <div className="hero-actions">
          <Link to="/Algorithm" className="p-button p-component">
            <i className="pi pi-book" style={{ marginRight: ".5rem" }} /> {t("tutorial")}
          </Link>
          <Link to="/demos" className="p-button p-button-outlined p-component">
            <i className="pi pi-play" style={{ marginRight: ".5rem" }} /> {t("tryDemos")}
          </Link>
          <Link to="/document" className="p-button p-button-outlined p-component">
            <i className="pi pi-question-circle" style={{ marginRight: ".5rem" }} /> {t("readDocs")}
          </Link>
          {/* A GET link so it works without JavaScript; the page answers with the paper notice (docs/product.md "Top bar and languages"). */}
          <Link to="?paper=1" className="p-button p-button-outlined p-component" preventScrollReset>
            <i className="pi pi-file" style={{ marginRight: ".5rem" }} /> {t("paper")}
          </Link>
        </div>
        {params.get("paper") ? (
          <div className="narrow" style={{ marginTop: "1rem" }}>
            <Notice kind="info">{t("paperNotice")}</Notice>
          </div>
        ) : null}
      </section>
      <div className="grid-2">
        <article className="card">
          <h2>{t("motivationTitle")}</h2>
          <p>{t("motivation")}</p>
        </article>
        <article className="card">
          <h2>{t("frameworkTitle")}</h2>
          <p>{t("framework")}</p>
        </article>
        <article className="card">
          <h2>{t("experimentsTitle")}</h2>
          <p>{t("experiments")}</p>
          <p data-testid="board-coverage">
            {board ? (
              <Trans
                t={t}
                i18nKey="coverage"
                values={{ datasets: board.datasets, models: board.models, methods: board.methods, tasks: board.tasks, cases: board.tasks * 2 }}
                components={{ board: <Link to={`/leaderboard?suite=${encodeURIComponent(board.id)}`} /> }}
              />
            ) : (
              <Trans t={t} i18nKey="noBoard" components={{ board: <Link to="/leaderboard" /> }} />
            )}
          </p>
        </article>
        <article className="card">
          <h2>{t("usageTitle")}</h2>
          <p>{t("usage")}</p>
        </article>
      </div>
    </>
  );
}
