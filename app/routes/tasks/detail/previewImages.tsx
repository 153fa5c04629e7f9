// /task_detail/$id/vis_images (the "preview" tab): the prototypes and samples the sidecar sent as
// training went on, newest iteration first, each with its caption.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { treeTaskImages } from "~/.server/treeTaskViews.server.ts";
import { taskImageCaption } from "~/lib/taskImageCaption.ts";

export const handle = { i18n: ["tasks"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = Number(params.id);
  return { id, images: await orRefusal(treeTaskImages(user, id)) };
}

export default function VisImages() {
  const { id, images } = useLoaderData<typeof loader>();
  const { t } = useTranslation("tasks");
  const iterations = [...new Set(images.map((i) => i.iteration))];
  return (
    <>
      <h2>{t("detail.tab.vis_images")}</h2>
      {images.length === 0 ? <p data-testid="task-images">--</p> : null}
      {iterations.map((it) => (
        <section key={it} data-testid="task-images" data-iteration={it}>
          <h3>{t("images.iteration", { iteration: it })}</h3>
          <div style={{ display: "flex", flexWrap: "wrap", gap: ".75rem" }}>
            {images
              .filter((i) => i.iteration === it)
              .map((i) => (
                <figure key={i.id} style={{ margin: 0, maxWidth: 180 }}>
                  <img
                    src={`/task_detail/${id}/image/${i.id}`}
                    alt={taskImageCaption(t, i.caption) || i.name}
                    loading="lazy"
                    // The sidecar sends the pictures at their own size (28 px for Fashion-MNIST): shown so they
                    // were specks above their three-line captions; enlarged, with their pixels kept sharp.
                    width={112}
                    style={{ display: "block", width: 112, maxWidth: "100%", height: "auto", imageRendering: "pixelated" }}
                  />
                  <figcaption className="muted" style={{ fontSize: ".85em" }}>
                    <code>{i.name}</code> {taskImageCaption(t, i.caption)}
                  </figcaption>
                </figure>
              ))}
          </div>
        </section>
      ))}
    </>
  );
}
