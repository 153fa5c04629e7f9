// /task_detail/$id/vis_scalars (the "curves" tab): loss and accuracies per iteration (react-vis).
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import reactVisCss from "react-vis/dist/style.css?url";
import { requireUser } from "~/.server/session.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { treeTaskDetails } from "~/.server/treeTaskViews.server.ts";
import { TrainingCurves } from "~/components/tasks/TrainingCurves.tsx";

export const handle = { i18n: ["tasks"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reactVisCss }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { scalars, task } = await orRefusal(treeTaskDetails(user, Number(params.id)));
  return { scalars, dataset: task.datasets.join(", ") };
}

export default function VisScalars() {
  const { scalars, dataset } = useLoaderData<typeof loader>();
  const { t } = useTranslation("tasks");
  return (
    <>
      <h2>{t("detail.tab.vis_scalars")}</h2>
      <p className="muted">{t("curves.note", { dataset: dataset || "--" })}</p>
      <TrainingCurves scalars={scalars} />
    </>
  );
}
