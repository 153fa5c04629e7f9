// Users' own picture datasets (docs/datasets.md "Rules and limits"): search and pick a visible
// dataset, create one, and in a dataset upload pictures (multipart, many per request), browse them
// 16 a page and delete them in delete mode. Every state is in the URL and every change is a form
// POST, so it all works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { Dialog } from "primereact/dialog";
import { Button } from "primereact/button";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { useState } from "react";
import { requireUser } from "~/.server/session.server.ts";
import type { UploadedFiles } from "~/.server/uploads.server.ts";
import {
  MSG,
  createDataset,
  datasetView,
  deleteDataset,
  deletePictures,
  listPictures,
  ownPictures,
  pageOf,
  pictureView,
  requireOwnDataset,
  requireVisibleDataset,
  searchDatasets,
  uploadPictures,
  type PictureView,
} from "~/.server/datasets.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { recordClick, recordImpression } from "~/.server/searchAnalytics.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { ConfirmSubmit } from "~/components/datasets/ConfirmSubmit.tsx";
import { Pager } from "~/components/Pager.tsx";
import { DatasetSearch } from "~/components/datasets/DatasetSearch.tsx";
import { PictureTile } from "~/components/datasets/PictureTile.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { checkFields, checkFormData } from "~/.server/forms.server.ts";
import { useTranslation } from "react-i18next";
import { messageRef, translateMessage } from "~/lib/forms/messages.ts";
import { parseForm, type FieldErrors } from "~/lib/forms/parse.ts";
import {
  PICTURE_LIMITS,
  PICTURE_MB,
  createDatasetSchema,
  datasetIntentSchema,
  deleteDatasetSchema,
  deletePicturesSchema,
  searchSchema,
  uploadSchema,
} from "~/lib/rules/datasets.ts";

export const handle = { i18n: "datasets" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const t = await i18nServer.getFixedT(request, "datasets");
  const url = new URL(request.url);
  const sp = url.searchParams;
  const notice = noticeOf(sp);
  const datasetId = sp.get("dataset");
  if (datasetId) {
    const dataset = await requireVisibleDataset(datasetId, user);
    await recordClick(request, sp);
    const pictures = await listPictures(dataset.id, pageOf(sp.get("page")));
    const view = await datasetView(dataset, user);
    const mode = view.isOwn && sp.get("mode") === "delete" ? "delete" : "browse";
    return {
      kind: "dataset" as const,
      title: `${dataset.name} — ${t("mine.title")} — Meta-Rank`,
      dataset: view,
      pictures,
      mode,
      selectAll: sp.get("select") === "all",
      upload: view.isOwn && sp.get("upload") === "1",
      notice,
      limits: { maxMb: PICTURE_MB, maxFiles: PICTURE_LIMITS.maxFiles },
    };
  }
  const title = `${t("mine.title")} — Meta-Rank`;
  const search = parseForm(sp, searchSchema);
  const type = sp.get("type") === "user" ? "user" : "name";
  if (!search.ok) {
    // An over-long keyword or a control character: the page says so, nothing is looked up.
    const result = { items: [], total: 0, page: 1, pageCount: 1, noMatch: false };
    return data({ kind: "list" as const, title, type, q: "", result, notice, searchError: search.errors.q ?? MSG.searchTooLong }, { status: 400 });
  }
  const { q } = search.value;
  const result = await searchDatasets(user, { type, q, page: pageOf(sp.get("page")) });
  if (type === "name") await recordImpression(request, q);
  return { kind: "list" as const, title, type, q, result, notice, searchError: undefined as string | undefined };
}

function noticeOf(sp: URLSearchParams): string | null {
  switch (sp.get("msg")) {
    case "created":
      return MSG.created;
    case "uploaded":
      return messageRef("datasets:mine.uploaded", { count: Number(sp.get("n")) || 0 });
    case "deleted":
      return messageRef("datasets:mine.deleted", { count: Number(sp.get("n")) || 0 });
    case "dataset-deleted":
      return "datasets:mine.datasetDeleted";
    default:
      return null;
  }
}

type ActionResult = {
  intent: string;
  error?: string;
  rejected?: string[];
  saved?: number;
  fieldErrors?: FieldErrors;
  /** The confirmation step without JavaScript: what the deletion would remove. */
  confirmPictures?: PictureView[];
  confirmDataset?: { pictures: number };
};

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const uploads = (context as { uploads?: UploadedFiles }).uploads;
  // A multipart body that multer did not parse (no limits applied) is never read here.
  if (!uploads && (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return data<ActionResult>({ intent: "upload", error: MSG.uploadUnreadable }, { status: 400 });
  }
  // Url-encoded bodies are read as a FormData (every repeated "pictureIds" kept); both kinds are
  // checked for control characters first (400 with the message, app/.server/forms.server.ts).
  const source: FormData | Record<string, string> = uploads ? checkFields(uploads.fields) : checkFormData(await request.formData());
  const intentValue = source instanceof FormData ? source.get("intent") : source.intent;
  const intent = datasetIntentSchema.safeParse(intentValue ?? "");
  if (!intent.success) return data<ActionResult>({ intent: "", error: MSG.unknownAction }, { status: 400 });
  const back = (params: Record<string, string | number>) => `/datasetInDetail?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

  if (intent.data === "create") {
    const parsed = parseForm(source, createDatasetSchema);
    if (!parsed.ok) return data<ActionResult>({ intent: intent.data, fieldErrors: parsed.errors }, { status: 400 });
    const r = await createDataset(user, parsed.value.name, parsed.value.visibility === "public");
    if (r.error) return data<ActionResult>({ intent: intent.data, fieldErrors: { name: r.error } }, { status: 400 });
    return redirect(back({ dataset: r.dataset!.id, msg: "created" }));
  }
  if (intent.data === "upload") {
    const parsed = parseForm(source, uploadSchema);
    // A malformed id (not digits, too long) is a bad request, with the "no such dataset" message.
    if (!parsed.ok) return data<ActionResult>({ intent: intent.data, error: parsed.errors.datasetId ?? MSG.notFound }, { status: 400 });
    const datasetId = parsed.value.datasetId;
    const outcome = await uploadPictures(
      user,
      datasetId,
      (uploads?.files ?? []).filter((x) => x.field === "pictures"),
      uploads?.error,
    );
    if (outcome.error)
      return data<ActionResult>({ intent: intent.data, error: outcome.error }, { status: uploads?.error?.code === "LIMIT_FILE_SIZE" ? 413 : 400 });
    if (outcome.rejected.length)
      return data<ActionResult>({ intent: intent.data, saved: outcome.saved, rejected: outcome.rejected }, { status: outcome.saved ? 200 : 400 });
    const last = (await listPictures(datasetId, Number.MAX_SAFE_INTEGER)).pageCount;
    return redirect(back({ dataset: datasetId, page: last, msg: "uploaded", n: outcome.saved }));
  }
  if (intent.data === "deletePictures") {
    const parsed = parseForm(source, deletePicturesSchema);
    if (!parsed.ok)
      return data<ActionResult>({ intent: intent.data, error: parsed.errors.datasetId ?? parsed.errors.pictureIds ?? MSG.badPicture }, { status: 400 });
    const { datasetId, pictureIds, page, confirm } = parsed.value;
    // Ownership is checked first, so an empty or unconfirmed request reveals nothing either.
    const pictures = await orRefusal(ownPictures(user, datasetId, pictureIds));
    if (!pictures.length) return data<ActionResult>({ intent: intent.data, error: MSG.noneSelected }, { status: 400 });
    if (confirm !== "yes") return data<ActionResult>({ intent: intent.data, confirmPictures: pictures.map(pictureView) });
    const n = await orRefusal(deletePictures(user, datasetId, pictureIds));
    return redirect(back({ dataset: datasetId, page, msg: "deleted", n }));
  }
  const parsed = parseForm(source, deleteDatasetSchema);
  if (!parsed.ok) return data<ActionResult>({ intent: intent.data, error: parsed.errors.datasetId ?? MSG.notFound }, { status: 400 });
  const dataset = await requireOwnDataset(parsed.value.datasetId, user);
  if (parsed.value.confirm !== "yes") {
    const total = (await listPictures(dataset.id, 1)).total;
    return data<ActionResult>({ intent: intent.data, confirmDataset: { pictures: total } });
  }
  await deleteDataset(user, dataset.id);
  return redirect(back({ msg: "dataset-deleted" }));
}

export default function DatasetInDetail() {
  const d = useLoaderData<typeof loader>();
  return (
    <section>
      <DatasetStyles />
      {d.kind === "list" ? <DatasetList {...d} /> : <DatasetScreen {...d} />}
    </section>
  );
}

function DatasetList({ type, q, result, notice, searchError }: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { kind: "list" }>) {
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const qs = (page: number) => `/datasetInDetail?${new URLSearchParams({ type, q, page: String(page) })}`;
  const { t } = useTranslation("datasets");
  return (
    <>
      <p>
        <Link to="/datasetPreview">
          <i className="pi pi-arrow-left" /> {t("mine.preview")}
        </Link>
      </p>
      <h1>{t("mine.title")}</h1>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <div className="card">
        <h2 style={{ marginTop: 0 }}>{t("mine.create")}</h2>
        <Form method="post" action="/datasetInDetail" className="ds-toolbar" aria-label={t("mine.create")}>
          <input type="hidden" name="intent" value="create" />
          <label htmlFor="ds-name">{t("mine.name")}</label>
          <input
            id="ds-name"
            name="name"
            className="p-inputtext"
            // No maxLength: the browser cut a pasted long name to 100 characters without a word;
            // the server refuses it and says the limit (datasetNameField) instead.
            required
            aria-invalid={res?.fieldErrors?.name ? true : undefined}
            aria-describedby="ds-name-error"
          />
          <label>
            <input type="radio" name="visibility" value="private" defaultChecked /> {t("mine.private")}
          </label>
          <label>
            <input type="radio" name="visibility" value="public" /> {t("mine.public")}
          </label>
          <Button type="submit" label={t("mine.createButton")} icon="pi pi-plus" loading={busy} />
        </Form>
        <FieldError id="ds-name-error" message={res?.fieldErrors?.name} />
        <FieldError id="ds-visibility-error" message={res?.fieldErrors?.visibility} />
        {res?.error ? <Notice kind="error">{res.error}</Notice> : null}
      </div>
      <div className="card">
        <h2 style={{ marginTop: 0 }}>{t("mine.visible")}</h2>
        <DatasetSearch action="/datasetInDetail" search={{ type, q, result, searchError }} pickRoute="/datasetInDetail" pickLabel={t("open")} pageHref={qs} />
      </div>
    </>
  );
}

function DatasetScreen({
  dataset,
  pictures,
  mode,
  selectAll,
  upload,
  notice,
  limits,
}: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { kind: "dataset" }>) {
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const base = `/datasetInDetail?dataset=${dataset.id}`;
  const pageHref = (p: number) => `${base}&page=${p}${mode === "delete" ? "&mode=delete" : ""}`;
  const here = `${base}&page=${pictures.page}`;
  const { t } = useTranslation("datasets");
  return (
    <>
      <p>
        <Link to="/datasetPreview">
          <i className="pi pi-arrow-left" /> {t("mine.preview")}
        </Link>{" "}
        · <Link to="/datasetInDetail">{t("mine.title")}</Link>
      </p>
      <h1 style={{ marginBottom: ".25rem" }}>{dataset.name}</h1>
      <p className="muted" style={{ marginTop: 0 }}>
        {dataset.platform ? t("installedHere") : t("mine.owner", { owner: dataset.owner })} · {dataset.isPublic ? t("public") : t("private")} ·{" "}
        {t("pictureCount", { count: pictures.total })}
      </p>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {res?.error ? <Notice kind="error">{res.error}</Notice> : null}
      {res?.confirmPictures?.length ? <ConfirmPicturesStep datasetId={dataset.id} page={pictures.page} pictures={res.confirmPictures} here={here} /> : null}
      {res?.confirmDataset ? <ConfirmDatasetStep datasetId={dataset.id} name={dataset.name} count={res.confirmDataset.pictures} here={here} /> : null}
      {res?.rejected?.length ? (
        <Notice kind="error">
          {res.saved ? t("mine.savedSome", { count: res.saved }) + " " : ""}
          {t("mine.refused", { count: res.rejected.length })}
          <ul style={{ margin: ".25rem 0 0" }}>
            {res.rejected.map((r, i) => (
              <li key={i}>{translateMessage(t, r)}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {dataset.isOwn && mode === "browse" ? (
        <div className="ds-toolbar">
          <Link to={`${here}&upload=1`} className="p-button p-component" preventScrollReset>
            <i className="pi pi-upload" style={{ marginRight: ".4rem" }} /> {t("mine.upload")}
          </Link>
          <Link to={`/labelPage?dataset=${dataset.id}`} className="p-button p-button-outlined p-component">
            <i className="pi pi-tag" style={{ marginRight: ".4rem" }} /> {t("mine.labelPictures")}
          </Link>
          {pictures.total ? (
            <Link to={`${here}&mode=delete`} className="p-button p-button-danger p-button-outlined p-component" preventScrollReset>
              <i className="pi pi-trash" style={{ marginRight: ".4rem" }} /> {t("mine.deletePictures")}
            </Link>
          ) : null}
        </div>
      ) : null}
      {upload ? (
        hydrated ? (
          <Dialog
            header={t("mine.upload")}
            visible
            onHide={() => navigate(here, { replace: true, preventScrollReset: true })}
            style={{ width: "min(520px, 95vw)" }}
          >
            <UploadForm datasetId={dataset.id} action={here} cancelHref={here} limits={limits} />
          </Dialog>
        ) : (
          <div className="card">
            <h2 style={{ marginTop: 0 }}>{t("mine.upload")}</h2>
            <UploadForm datasetId={dataset.id} action={here} cancelHref={here} limits={limits} />
          </div>
        )
      ) : null}
      {mode === "delete" ? (
        <DeleteMode datasetId={dataset.id} page={pictures.page} pictures={pictures.items} selectAll={selectAll} here={here} />
      ) : (
        <div className="ds-grid" data-testid="picture-grid">
          {pictures.items.map((p) => (
            <PictureTile key={p.id} picture={p} href={p.url} />
          ))}
        </div>
      )}
      {pictures.total === 0 ? <p className="muted">{t("mine.noPictures")}</p> : null}
      <Pager page={pictures.page} pageCount={pictures.pageCount} href={pageHref} label={t("mine.picturePages")} />
      {dataset.isOwn && mode === "browse" ? (
        <details style={{ marginTop: "2rem" }}>
          <summary className="muted">{t("mine.deleteThis")}</summary>
          <Form method="post" action={here} className="ds-toolbar" style={{ marginTop: ".75rem" }}>
            <input type="hidden" name="intent" value="deleteDataset" />
            <input type="hidden" name="datasetId" value={dataset.id} />
            <span>{t("mine.deleteWarning", { count: pictures.total })}</span>
            <ConfirmSubmit
              label={t("mine.deleteDataset")}
              header={t("mine.confirmDatasetTitle")}
              message={t("mine.confirmDataset", { name: dataset.name, count: pictures.total })}
              acceptLabel={t("mine.deleteForGood")}
              testId="delete-dataset"
            />
          </Form>
        </details>
      ) : null}
    </>
  );
}

function UploadForm({
  datasetId,
  action,
  cancelHref,
  limits,
}: {
  datasetId: number;
  action: string;
  cancelHref: string;
  limits: { maxMb: number; maxFiles: number };
}) {
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("datasets");
  return (
    // Manual upload: choose files, then confirm; nothing is sent on selection.
    <Form method="post" action={action} encType="multipart/form-data" aria-label={t("mine.upload")} replace>
      <input type="hidden" name="intent" value="upload" />
      <input type="hidden" name="datasetId" value={datasetId} />
      <div className="field">
        <label htmlFor="pictures">{t("mine.picturesLabel", { mb: limits.maxMb, files: limits.maxFiles })}</label>
        <input id="pictures" name="pictures" type="file" multiple accept="image/png,image/jpeg,image/gif,image/webp" required />
      </div>
      <div className="ds-toolbar">
        <Button type="submit" label={t("mine.confirmUpload")} icon="pi pi-check" loading={busy} />
        <Link to={cancelHref} className="p-button p-button-text p-component" preventScrollReset>
          {t("mine.cancel")}
        </Link>
      </div>
    </Form>
  );
}

/** Delete mode: checkboxes for this page only, select all, cancel all, confirm, cancel. */
function DeleteMode({
  datasetId,
  page,
  pictures,
  selectAll,
  here,
}: {
  datasetId: number;
  page: number;
  pictures: { id: number; thumbUrl: string; url: string; name: string; label: string | null; width: number; height: number }[];
  selectAll: boolean;
  here: string;
}) {
  const hydrated = useHydrated();
  // Selection is per page: a new page starts empty (or all, when asked by the no-JS link). The
  // selection remembers which page it belongs to, so a page change resets it during render.
  const pageKey = `${page}:${selectAll}:${pictures.map((p) => p.id).join(",")}`;
  const initial = () => new Set(selectAll ? pictures.map((p) => p.id) : []);
  const [selection, setSelection] = useState(() => ({ key: pageKey, ids: initial() }));
  const selected = selection.key === pageKey ? selection.ids : initial();
  const setSelected = (next: Set<number> | ((s: Set<number>) => Set<number>)) =>
    setSelection((cur) => {
      const base = cur.key === pageKey ? cur.ids : initial();
      return { key: pageKey, ids: typeof next === "function" ? next(base) : next };
    });
  const busy = useNavigation().state === "submitting";
  const toggle = (id: number) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const { t } = useTranslation("datasets");
  return (
    <Form method="post" action={here + "&mode=delete"} aria-label={t("mine.deletePictures")}>
      <input type="hidden" name="intent" value="deletePictures" />
      <input type="hidden" name="datasetId" value={datasetId} />
      <input type="hidden" name="page" value={page} />
      <div className="ds-toolbar">
        {hydrated ? (
          <>
            <Button type="button" label={t("mine.selectAll")} outlined onClick={() => setSelected(new Set(pictures.map((p) => p.id)))} />
            <Button type="button" label={t("mine.cancelAll")} outlined onClick={() => setSelected(new Set())} />
          </>
        ) : (
          <>
            <Link to={`${here}&mode=delete&select=all`} className="p-button p-button-outlined p-component">
              {t("mine.selectAll")}
            </Link>
            <Link to={`${here}&mode=delete`} className="p-button p-button-outlined p-component">
              {t("mine.cancelAll")}
            </Link>
          </>
        )}
        <ConfirmSubmit
          label={hydrated ? t("mine.confirmCount", { count: selected.size }) : t("mine.confirm")}
          header={t("mine.confirmPicturesTitle")}
          message={t("mine.confirmPictures", { count: selected.size })}
          acceptLabel={t("mine.deleteForGood")}
          loading={busy}
          disabled={hydrated && selected.size === 0}
          testId="delete-pictures"
        />
        <Link to={here} className="p-button p-button-text p-component">
          {t("mine.cancel")}
        </Link>
      </div>
      <div className="ds-grid" data-testid="picture-grid">
        {pictures.map((p) => (
          <PictureTile key={p.id} picture={p} picked={selected.has(p.id)}>
            <input
              type="checkbox"
              className="ds-check"
              name="pictureIds"
              value={p.id}
              aria-label={t("mine.selectOne", { name: p.name })}
              {...(hydrated ? { checked: selected.has(p.id), onChange: () => toggle(p.id) } : { defaultChecked: selectAll })}
            />
          </PictureTile>
        ))}
      </div>
    </Form>
  );
}

/** Without JavaScript, a deletion first comes back here: the same question as the dialog, then the real form. */
function ConfirmPicturesStep({ datasetId, page, pictures, here }: { datasetId: number; page: number; pictures: PictureView[]; here: string }) {
  const { t } = useTranslation("datasets");
  return (
    <ConfirmStep
      id="confirm-pictures-title"
      title={t("mine.confirmPicturesTitle")}
      question={t("mine.confirmPictures", { count: pictures.length })}
      action={here + "&mode=delete"}
      fields={[["intent", "deletePictures"], ["datasetId", datasetId], ["page", page], ...pictures.map((p) => ["pictureIds", p.id] as const)]}
    >
      <div className="ds-preview-pics" style={{ gridTemplateColumns: "repeat(auto-fill, 96px)", marginBottom: "1rem" }}>
        {pictures.map((p) => (
          <img key={p.id} src={p.thumbUrl} alt={p.name} />
        ))}
      </div>
    </ConfirmStep>
  );
}

function ConfirmDatasetStep({ datasetId, name, count, here }: { datasetId: number; name: string; count: number; here: string }) {
  const { t } = useTranslation("datasets");
  return (
    <ConfirmStep
      id="confirm-dataset-title"
      title={t("mine.confirmDatasetTitle")}
      question={t("mine.confirmDataset", { name, count })}
      action={here}
      fields={[
        ["intent", "deleteDataset"],
        ["datasetId", datasetId],
      ]}
    />
  );
}

/** The confirmation step itself: the question (and what the caller shows under it), a form that posts the fields with confirm=yes, and a way back to `action` (the page without the step). */
function ConfirmStep({
  id,
  title,
  question,
  action,
  fields,
  children,
}: {
  id: string;
  title: string;
  question: string;
  action: string;
  fields: readonly (readonly [string, string | number])[];
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("datasets");
  return (
    <div className="card notice-warn" role="alertdialog" aria-labelledby={id} data-testid="confirm-step">
      <h2 id={id} style={{ marginTop: 0 }}>
        {title}
      </h2>
      <p>{question}</p>
      {children}
      <Form method="post" action={action} className="ds-toolbar">
        {fields.map(([name, value], i) => (
          <input key={i} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirm" value="yes" />
        <Button type="submit" severity="danger" icon="pi pi-trash" label={t("mine.deleteForGood")} />
        <Link to={action} className="p-button p-button-text p-component">
          {t("mine.keep")}
        </Link>
      </Form>
    </div>
  );
}
