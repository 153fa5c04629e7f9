// Labelling (docs/datasets.md "Labelling"): a signed-in user picks one of their own datasets,
// defines its classes and labels its pictures: one by one (the current picture and a button per
// class; with JavaScript also digits 1–9 and the arrow keys), or a page of 16 at a time (a select
// per picture, one submit). Every state is in the URL and every change is a form POST, so all of it
// works without JavaScript. The rules and the ownership checks are in app/.server/labels.server.ts.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useSubmit } from "@remix-run/react";
import { Button } from "primereact/button";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { pageOf } from "~/.server/datasets.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { LABEL_MSG, labellingList, labellingScreen, nextAfter, requireLabellingDataset, setClasses, setLabels } from "~/.server/labels.server.ts";
import { Notice, FieldError } from "~/components/FieldError.tsx";
import { Pager } from "~/components/Pager.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { LabelStyles } from "~/components/labels/styles.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { messageRef } from "~/lib/forms/messages.ts";
import { parseForm, type FieldErrors } from "~/lib/forms/parse.ts";
import {
  CLASSES_MAX,
  CLASS_LIST_MAX,
  CLASS_NAME_MAX,
  LABELS_PER_PAGE,
  SHORTCUT_CLASSES,
  classesSchema,
  labelFieldName,
  labelIntentSchema,
  labelsPageSchema,
  oneLabelSchema,
  parseLabelFields,
} from "~/lib/rules/labels.ts";

export const handle = { i18n: "labels" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

const screenUrl = (datasetId: number, page?: number, at?: number) =>
  `/labelPage?${new URLSearchParams({ dataset: String(datasetId), ...(page ? { page: String(page) } : {}), ...(at != null ? { at: String(at) } : {}) })}`;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const t = await i18nServer.getFixedT(request, "labels");
  const sp = new URL(request.url).searchParams;
  const datasetId = sp.get("dataset");
  if (!datasetId) return { kind: "list" as const, title: t("metaTitle"), datasets: await labellingList(user) };
  const at = sp.has("at") ? Math.min(LABELS_PER_PAGE - 1, Math.max(0, Math.floor(Number(sp.get("at"))) || 0)) : null;
  const screen = await orRefusal(labellingScreen(user, datasetId, sp.has("page") ? pageOf(sp.get("page")) : null, at));
  return {
    kind: "dataset" as const,
    title: `${screen.dataset.name} — ${t("metaTitle")}`,
    ...screen,
    notice: noticeOf(sp),
  };
}

function noticeOf(sp: URLSearchParams): string | null {
  switch (sp.get("msg")) {
    case "classes":
      return "labels:classesSaved";
    case "saved":
      return messageRef("labels:saved", { count: Number(sp.get("n")) || 0 });
    case "labelled":
      return "labels:labelledOne";
    default:
      return null;
  }
}

type ActionResult = { intent: string; error?: string; fieldErrors?: FieldErrors; classesText?: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = checkFormData(await request.formData());
  // Ownership before anything else: another user's dataset is 404 whatever the form says.
  const dataset = await requireLabellingDataset(form.get("datasetId"), user);
  const intent = labelIntentSchema.safeParse(form.get("intent") ?? "");
  if (!intent.success) return data<ActionResult>({ intent: "", error: LABEL_MSG.unknownAction }, { status: 400 });

  if (intent.data === "classes") {
    const parsed = parseForm(form, classesSchema);
    const typed = String(form.get("classes") ?? "").slice(0, CLASS_LIST_MAX);
    if (!parsed.ok) return data<ActionResult>({ intent: intent.data, fieldErrors: parsed.errors, classesText: typed }, { status: 400 });
    const r = await orRefusal(setClasses(user, dataset.id, parsed.value.classes));
    if (r.error) return data<ActionResult>({ intent: intent.data, fieldErrors: { classes: r.error }, classesText: typed }, { status: 400 });
    return redirect(`${screenUrl(dataset.id)}&msg=classes`);
  }
  if (intent.data === "labels") {
    const parsed = parseForm(form, labelsPageSchema);
    const fields = parseLabelFields(form);
    if (!parsed.ok || !fields.ok) return data<ActionResult>({ intent: intent.data, error: fields.ok ? LABEL_MSG.badPicture : fields.error }, { status: 400 });
    const r = await orRefusal(setLabels(user, dataset.id, fields.entries));
    if (r.error) return data<ActionResult>({ intent: intent.data, error: r.error }, { status: 400 });
    return redirect(`${screenUrl(dataset.id, parsed.value.page)}&msg=saved&n=${r.changed}`);
  }
  const parsed = parseForm(form, oneLabelSchema);
  if (!parsed.ok) return data<ActionResult>({ intent: intent.data, error: parsed.errors.pictureId ?? LABEL_MSG.badPicture }, { status: 400 });
  const { pictureId, label } = parsed.value;
  const r = await orRefusal(setLabels(user, dataset.id, [{ pictureId, label: label.trim() || null }]));
  if (r.error) return data<ActionResult>({ intent: intent.data, error: r.error }, { status: 400 });
  // One by one: on to the next picture (the next page after the last of this one).
  const next = await nextAfter(dataset.id, pictureId);
  return redirect(`${screenUrl(dataset.id, next.page, next.at)}&msg=labelled`);
}

export default function LabelPage() {
  const d = useLoaderData<typeof loader>();
  return (
    <section>
      <DatasetStyles />
      <LabelStyles />
      {d.kind === "list" ? <DatasetChoice {...d} /> : <LabellingScreen {...d} />}
    </section>
  );
}

function DatasetChoice({ datasets }: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { kind: "list" }>) {
  const { t } = useTranslation("labels");
  return (
    <>
      <h1>{t("title")}</h1>
      <p className="muted">{t("lead")}</p>
      <div className="card">
        {datasets.length ? (
          <table className="lb-table" data-testid="label-datasets">
            <thead>
              <tr>
                <th scope="col">{t("colName")}</th>
                <th scope="col">{t("colClasses")}</th>
                <th scope="col">{t("colProgress")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("label")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {datasets.map((ds) => (
                <tr key={ds.id} data-dataset-id={ds.id}>
                  <td>{ds.name}</td>
                  <td>{t("classCount", { count: ds.classes })}</td>
                  <td data-testid="list-progress">{t("progressShort", ds.progress)}</td>
                  <td>
                    <Link to={screenUrl(ds.id)} className="p-button p-button-sm p-component">
                      <i className="pi pi-tag" style={{ marginRight: ".4rem" }} /> {t("label")}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>
            {t("noDatasets")} <Link to="/datasetInDetail">{t("createOne")}</Link>
          </p>
        )}
      </div>
    </>
  );
}

type Screen = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { kind: "dataset" }>;

function LabellingScreen({ dataset, classes, progress, pictures, at, notice }: Screen) {
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const { t } = useTranslation("labels");
  const navigate = useNavigate();
  const submit = useSubmit();
  const idle = useNavigation().state === "idle";
  // With JavaScript the current picture moves without a request; a new page or a label saved
  // (the server's redirect names the next picture) starts again from the loader's choice.
  const key = `${pictures.page}:${at}:${pictures.items.map((p) => `${p.id}=${p.label ?? ""}`).join(",")}`;
  const [cursor, setCursor] = useState({ key, at });
  const current = cursor.key === key ? cursor.at : at;
  const picture = pictures.items[current];
  const position = (pictures.page - 1) * LABELS_PER_PAGE + current;
  const names = classes.map((c) => c.name);

  const prevHref =
    current > 0 ? screenUrl(dataset.id, pictures.page, current - 1) : pictures.page > 1 ? screenUrl(dataset.id, pictures.page - 1, LABELS_PER_PAGE - 1) : null;
  const nextHref =
    current < pictures.items.length - 1
      ? screenUrl(dataset.id, pictures.page, current + 1)
      : pictures.page < pictures.pageCount
        ? screenUrl(dataset.id, pictures.page + 1, 0)
        : null;
  const move = (delta: 1 | -1) => {
    const i = current + delta;
    if (i >= 0 && i < pictures.items.length) setCursor({ key, at: i });
    else if (delta < 0 && prevHref) navigate(prevHref, { preventScrollReset: true });
    else if (delta > 0 && nextHref) navigate(nextHref, { preventScrollReset: true });
  };
  const label = (name: string | null) => {
    if (!picture) return;
    submit(
      { intent: "label", datasetId: String(dataset.id), pictureId: String(picture.id), label: name ?? "" },
      { method: "post", action: screenUrl(dataset.id, pictures.page, current), replace: true, preventScrollReset: true },
    );
  };

  useLabellingKeys(Boolean(names.length && picture), idle, names, label, move);

  const here = screenUrl(dataset.id, pictures.page, current);
  return (
    <>
      <p>
        <Link to="/labelPage">
          <i className="pi pi-arrow-left" /> {t("allDatasets")}
        </Link>{" "}
        · <Link to={`/datasetInDetail?dataset=${dataset.id}`}>{t("openDataset")}</Link>
      </p>
      <h1 style={{ marginBottom: ".25rem" }}>{t("datasetTitle", { name: dataset.name })}</h1>
      <div className="lb-progress">
        <progress value={progress.labelled} max={Math.max(1, progress.total)} aria-label={t("colProgress")} />
        <span data-testid="progress" data-labelled={progress.labelled} data-total={progress.total}>
          {t("progress", progress)}
        </span>
      </div>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {res?.error ? <Notice kind="error">{res.error}</Notice> : null}
      {!classes.length ? <Notice kind="info">{t("defineFirst")}</Notice> : null}
      {!classes.length ? <ClassesCard datasetId={dataset.id} classes={classes} res={res} /> : null}
      {pictures.total === 0 ? (
        <p className="muted">
          {t("noPictures")} <Link to={`/datasetInDetail?dataset=${dataset.id}&upload=1`}>{t("upload")}</Link>
        </p>
      ) : null}
      {classes.length && picture ? (
        <CurrentPicture
          datasetId={dataset.id}
          picture={picture}
          position={position}
          total={pictures.total}
          names={names}
          here={here}
          prevHref={prevHref}
          nextHref={nextHref}
          move={move}
        />
      ) : null}
      {pictures.items.length ? (
        <PageLabelsForm datasetId={dataset.id} pictures={pictures} current={current} names={names} idle={idle} onPick={(i) => setCursor({ key, at: i })} />
      ) : null}
      <Pager page={pictures.page} pageCount={pictures.pageCount} href={(p) => screenUrl(dataset.id, p)} label={t("picturePages")} />
      {classes.length ? <ClassesCard datasetId={dataset.id} classes={classes} res={res} /> : null}
    </>
  );
}

/** Keyboard shortcuts (shown on the page once they work): digits pick a class, arrows and n/p move. */
function useLabellingKeys(enabled: boolean, idle: boolean, names: string[], label: (name: string | null) => void, move: (delta: 1 | -1) => void) {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      // Typing in the class list or a select is not a shortcut.
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      // One change at a time: a key pressed while a label is being saved would label the wrong picture.
      if (!idle) return;
      if (/^[1-9]$/.test(e.key)) {
        const n = Number(e.key);
        if (n <= Math.min(SHORTCUT_CLASSES, names.length)) {
          e.preventDefault();
          label(names[n - 1]);
        }
      } else if (e.key === "0" || e.key === "Backspace") {
        e.preventDefault();
        label(null);
      } else if (e.key === "ArrowRight" || e.key === "n") {
        e.preventDefault();
        move(1);
      } else if (e.key === "ArrowLeft" || e.key === "p") {
        e.preventDefault();
        move(-1);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
}

/** The picture being labelled: its class buttons (one form, a button per class) and the moves to the previous and next picture. */
function CurrentPicture({
  datasetId,
  picture,
  position,
  total,
  names,
  here,
  prevHref,
  nextHref,
  move,
}: {
  datasetId: number;
  picture: Screen["pictures"]["items"][number];
  position: number;
  total: number;
  names: string[];
  here: string;
  prevHref: string | null;
  nextHref: string | null;
  move: (delta: 1 | -1) => void;
}) {
  const { t } = useTranslation("labels");
  const hydrated = useHydrated();
  return (
    <div className="card" data-testid="current" data-picture-id={picture.id}>
      <h2 style={{ marginTop: 0 }}>{t("current")}</h2>
      <div className="lb-current">
        <img src={picture.url} alt={picture.name} />
        <div>
          <p style={{ marginTop: 0 }}>{t("pictureOf", { n: position + 1, total, name: picture.name })}</p>
          <p data-testid="current-label">
            <strong>{picture.label ? t("labelledAs", { label: picture.label }) : t("unlabelled")}</strong>
          </p>
          <Form method="post" action={here} replace preventScrollReset aria-label={t("pickClass")}>
            <input type="hidden" name="intent" value="label" />
            <input type="hidden" name="datasetId" value={datasetId} />
            <input type="hidden" name="pictureId" value={picture.id} />
            <span className="muted">{t("pickClass")}</span>
            <div className="lb-classes">
              {names.map((name, i) => (
                <button
                  key={name}
                  type="submit"
                  name="label"
                  value={name}
                  className={"p-button p-button-outlined p-button-sm p-component" + (picture.label === name ? " lb-on" : "")}
                  aria-pressed={picture.label === name}
                >
                  {i < SHORTCUT_CLASSES ? <span className="lb-key">{i + 1}</span> : null}
                  {name}
                </button>
              ))}
              {picture.label ? (
                <button type="submit" name="label" value="" className="p-button p-button-text p-button-sm p-component">
                  {t("clear")}
                </button>
              ) : null}
            </div>
          </Form>
          <div className="ds-toolbar">
            {prevHref ? (
              <Link
                to={prevHref}
                preventScrollReset
                className="p-button p-button-text p-component"
                onClick={(e) => {
                  if (!hydrated) return;
                  e.preventDefault();
                  move(-1);
                }}
              >
                ‹ {t("previous")}
              </Link>
            ) : null}
            {nextHref ? (
              <Link
                to={nextHref}
                preventScrollReset
                className="p-button p-button-text p-component"
                onClick={(e) => {
                  if (!hydrated) return;
                  e.preventDefault();
                  move(1);
                }}
              >
                {t("next")} ›
              </Link>
            ) : null}
          </div>
          {hydrated ? (
            <div data-testid="shortcuts">
              <strong>{t("shortcuts")}</strong>
              <ul className="lb-shortcuts">
                <li>{t("shortcutDigits")}</li>
                <li>{t("shortcutMove")}</li>
                <li>{t("shortcutClear")}</li>
              </ul>
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** The page's pictures, each with its label select: the form that labels a whole page at once (and picks the current picture). */
function PageLabelsForm({
  datasetId,
  pictures,
  current,
  names,
  idle,
  onPick,
}: {
  datasetId: number;
  pictures: Screen["pictures"];
  current: number;
  names: string[];
  idle: boolean;
  onPick: (i: number) => void;
}) {
  const { t } = useTranslation("labels");
  const hydrated = useHydrated();
  return (
    <Form method="post" action={screenUrl(datasetId, pictures.page)} replace preventScrollReset aria-label={t("pageForm")}>
      <input type="hidden" name="intent" value="labels" />
      <input type="hidden" name="datasetId" value={datasetId} />
      <input type="hidden" name="page" value={pictures.page} />
      <h2>{t("pageForm")}</h2>
      {names.length ? <p className="muted">{t("pageFormHelp")}</p> : null}
      <div className="ds-grid" data-testid="picture-grid">
        {pictures.items.map((p, i) => (
          <div key={p.id} className={"ds-tile lb-tile" + (i === current ? " picked" : "")} data-picture-id={p.id}>
            <Link
              to={screenUrl(datasetId, pictures.page, i)}
              preventScrollReset
              aria-current={i === current ? "true" : undefined}
              onClick={(e) => {
                if (!hydrated) return;
                e.preventDefault();
                onPick(i);
              }}
            >
              <img src={p.thumbUrl} alt={p.name} loading="lazy" />
            </Link>
            <span className="ds-caption">{p.name}</span>
            {names.length ? (
              // Keyed by the label so a saved label (the loader's new value) replaces what the select shows.
              <select key={`${p.id}:${p.label ?? ""}`} name={labelFieldName(p.id)} defaultValue={p.label ?? ""} aria-label={t("labelFor", { name: p.name })}>
                <option value="">{t("noLabel")}</option>
                {names.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            ) : null}
          </div>
        ))}
      </div>
      {names.length ? (
        <div className="ds-toolbar" style={{ marginTop: "1rem" }}>
          <Button type="submit" label={t("savePage")} icon="pi pi-check" loading={!idle} />
        </div>
      ) : null}
    </Form>
  );
}

function ClassesCard({ datasetId, classes, res }: { datasetId: number; classes: { name: string; count: number }[]; res?: ActionResult }) {
  const { t } = useTranslation("labels");
  const saved = classes.map((c) => c.name).join("\n");
  const typed = res?.intent === "classes" ? res.classesText : undefined;
  return (
    <div className="card" style={{ marginTop: "1.5rem" }}>
      <h2 style={{ marginTop: 0 }}>{t("classes")}</h2>
      <Form method="post" action={screenUrl(datasetId)} preventScrollReset aria-label={t("classes")}>
        <input type="hidden" name="intent" value="classes" />
        <input type="hidden" name="datasetId" value={datasetId} />
        <div className="field">
          <label htmlFor="classes">{t("classesField")}</label>
          <textarea
            // Keyed by what is saved (and what was refused), so the text follows the server after a save.
            key={`${saved}|${typed ?? ""}`}
            id="classes"
            name="classes"
            className="p-inputtextarea p-inputtext"
            rows={Math.min(12, Math.max(4, classes.length + 1))}
            maxLength={CLASS_LIST_MAX}
            defaultValue={typed ?? saved}
            aria-invalid={res?.fieldErrors?.classes ? true : undefined}
            aria-describedby="classes-help classes-error"
            style={{ width: "min(420px, 100%)" }}
          />
          <small id="classes-help" className="muted" style={{ display: "block" }}>
            {t("classesHelp", { max: CLASSES_MAX, chars: CLASS_NAME_MAX })}
          </small>
          <FieldError id="classes-error" message={res?.fieldErrors?.classes} />
        </div>
        <Button type="submit" label={t("saveClasses")} icon="pi pi-save" outlined />
      </Form>
      {classes.length ? (
        <ul className="lb-usage" data-testid="class-usage">
          {classes.map((c) => (
            <li key={c.name}>{t("classUsage", c)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
