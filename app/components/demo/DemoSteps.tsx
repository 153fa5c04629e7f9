// The common demo flow's view, written once for every demo page: step 1 an image (PickStep: a
// visible dataset then one of its pictures; PoolStep: a refreshable pool, 6 thumbnails a row, the
// dataset's introduction, a red border on the pick, one upload), step 2 model and algorithm
// (ModelAlgorithmFields, StartButton), step 3 results hidden until they exist with a busy indicator
// while a run is under way (Busy), and the toasts (DemoToasts). Every step is a link or a form, so
// it works without JavaScript; the server side is app/.server/demoFlow.server.ts. Pages pass their
// own route and words.
import { Form, Link, useNavigation } from "@remix-run/react";
import { Button } from "primereact/button";
import { ProgressSpinner } from "primereact/progressspinner";
import { Toast } from "primereact/toast";
import { useEffect, useRef } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { DatasetPreview, Paged, PictureView } from "~/.server/datasets.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import type { DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { DatasetPicker, PicturePicker } from "~/components/datasets/PicturePicker.tsx";
import { translateMessage, type MessageRef } from "~/lib/forms/messages.ts";
import { ButtonField } from "~/components/ButtonField.tsx";

/** What a loader's dataset step sends (app/.server/demoFlow.server.ts datasetStep). */
export type DatasetStepData =
  | {
      step: 1;
      type: string;
      q: string;
      search: { items: DatasetPreview[]; page: number; pageCount: number; noMatch: boolean; total: number };
      searchError?: string;
    }
  | { step: 2; dataset: { id: number; name: string }; pictures: Paged<PictureView> };

/** A page's own words for the two pickers (defaults: the `demo` namespace's). */
export interface PickWords {
  datasetTitle?: string;
  hint?: string;
  select?: string;
  imageTitle?: (datasetName: string) => string;
  back?: string;
  noPictures?: string;
  pages?: string;
}

/** Step 1 and 2 of the dataset variant: the visible datasets' search, then the chosen dataset's pictures. */
export function PickStep({
  route,
  d,
  pickedId,
  carry,
  words = {},
}: {
  route: string;
  d: DatasetStepData;
  pickedId: number | null;
  carry: Record<string, string>;
  words?: PickWords;
}) {
  const { t } = useTranslation("demo");
  if (d.step === 1)
    return (
      <DatasetPicker
        route={route}
        title={words.datasetTitle ?? t("demo:step1Dataset")}
        hint={words.hint}
        selectLabel={words.select ?? t("demo:select")}
        type={d.type}
        q={d.q}
        search={d.search}
        searchError={d.searchError}
      />
    );
  return (
    <PicturePicker
      route={route}
      title={words.imageTitle ? words.imageTitle(d.dataset.name) : t("demo:step2Image", { name: d.dataset.name })}
      backLabel={words.back ?? t("demo:backToDatasets")}
      noPicturesLabel={words.noPictures ?? t("demo:noPictures")}
      pagesLabel={words.pages ?? t("demo:imagePages")}
      dataset={d.dataset}
      pictures={d.pictures}
      pickedId={pickedId}
      carry={carry}
    />
  );
}

/**
 * Step 1 of the pool variant: POOL_SIZE thumbnails 6 a row, a refresh link (the next pool seed),
 * the dataset's introduction, the pick with a red border (also when it is not in this pool, e.g.
 * an upload), and the one-image upload for signed-in users. `href` builds the page's address for
 * a pool seed and a picture, so the pool works on any route and keeps the page's own parameters.
 */
export function PoolStep({
  title,
  pool,
  seed,
  href,
  introSlug,
  picture,
  upload,
}: {
  title?: string;
  pool: { id: number; thumbUrl: string; label: string | null }[];
  seed: number;
  href: (q: { pool: number; picture?: number }) => string;
  introSlug: string;
  picture: { id: number; url: string; name: string } | null;
  /** The upload form (left out on pages without one); `action` is the page's address. */
  upload?: { signedIn: boolean; action: string; error?: string };
}) {
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("demo");
  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>{title ?? t("demo:step1Pool")}</h2>
      <div className="ds-toolbar">
        <Link to={href({ pool: seed + 1 })} className="p-button p-button-outlined p-component" data-testid="refresh-pool">
          <i className="pi pi-refresh" style={{ marginRight: ".4rem" }} /> {t("demo:refreshPool")}
        </Link>
        <Link to={`/datasetPreview?intro=${encodeURIComponent(introSlug)}`} className="p-button p-button-text p-component">
          {t("demo:datasetIntro")}
        </Link>
      </div>
      {pool.length ? (
        <div className="ds-grid" style={{ gridTemplateColumns: "repeat(6, minmax(0, 1fr))" }} data-testid="image-pool">
          {pool.map((p) => (
            <a key={p.id} href={href({ pool: seed, picture: p.id })} className={"ds-tile" + (picture?.id === p.id ? " picked" : "")} data-picture-id={p.id}>
              <img src={p.thumbUrl} alt={p.label ?? t("demo:poolImage")} />
            </a>
          ))}
        </div>
      ) : (
        <p className="muted">{t("demo:noPool")}</p>
      )}
      {picture && !pool.some((p) => p.id === picture.id) ? (
        <p>
          {t("demo:chosenImage")}{" "}
          <img
            src={picture.url}
            alt={picture.name}
            style={{
              width: 96,
              height: 96,
              objectFit: "contain",
              imageRendering: "pixelated",
              border: "2px solid #dc2626",
              borderRadius: 6,
              verticalAlign: "middle",
            }}
          />{" "}
          {picture.name}
        </p>
      ) : null}
      {upload ? (
        <>
          <h3>{t("demo:uploadTitle")}</h3>
          {upload.signedIn ? (
            <Form method="post" encType="multipart/form-data" action={upload.action} className="ds-toolbar" aria-label={t("demo:uploadTitle")}>
              <input type="hidden" name="intent" value="upload" />
              <input type="file" name="picture" accept="image/png,image/jpeg,image/gif,image/webp" required aria-describedby="upload-error" />
              <Button type="submit" label={t("demo:upload")} icon="pi pi-upload" outlined loading={busy} />
            </Form>
          ) : (
            <p className="muted">
              <Trans t={t} i18nKey="loginToUpload" components={{ login: <Link to={`/signin?redirectTo=${encodeURIComponent(upload.action)}`} /> }} />
            </p>
          )}
          <FieldError id="upload-error" message={upload.error} />
        </>
      ) : null}
    </div>
  );
}

/** A labelled <select> with an empty "choose" option first, its error line and what the caller adds below. */
function SelectField({
  name,
  label,
  choose,
  value,
  options,
  error,
  children,
}: {
  name: string;
  label: string;
  choose: string;
  value: string;
  options: readonly { value: string; label: string }[];
  error?: MessageRef;
  children?: React.ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select id={name} name={name} className="p-inputtext" defaultValue={value} key={`${name}:${value}`} aria-describedby={`${name}-error`}>
        <option value="">{choose}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} message={error} />
      {children}
    </div>
  );
}

/** Step 2's two choices: the model and the algorithm, each with its required-field message. */
export function ModelAlgorithmFields({
  models,
  modelsError,
  algorithms,
  model,
  algorithm,
  errors,
  words = {},
}: {
  models: { value: string; label: MessageRef }[];
  modelsError?: MessageRef | null;
  algorithms: readonly { value: string; label: string }[];
  model: string;
  algorithm: string;
  errors?: { model?: string; algorithm?: string };
  words?: { model?: string; algorithm?: string; choose?: string };
}) {
  const { t } = useTranslation("demo");
  return (
    <>
      <SelectField
        name="model"
        label={words.model ?? t("demo:model")}
        choose={words.choose ?? t("demo:choose")}
        value={model}
        options={models.map((m) => ({ value: m.value, label: translateMessage(t, m.label) }))}
        error={errors?.model}
      >
        {modelsError ? <small className="muted">{translateMessage(t, modelsError)}</small> : null}
      </SelectField>
      <SelectField
        name="algorithm"
        label={words.algorithm ?? t("demo:algorithm")}
        choose={words.choose ?? t("demo:choose")}
        value={algorithm}
        options={algorithms}
        error={errors?.algorithm}
      />
    </>
  );
}

/** True while this page's form with the given intent is being submitted (any form when no intent). */
export function useRunning(intent?: string): boolean {
  const nav = useNavigation();
  return nav.state === "submitting" && (intent === undefined || nav.formData?.get("intent") === intent);
}

/** The start button, aligned with the fields beside it; it spins while its form's run is under way. */
export function StartButton({ label, intent }: { label: string; intent: string }) {
  const running = useRunning(intent);
  return (
    <ButtonField>
      <Button type="submit" label={label} icon="pi pi-play" loading={running} />
    </ButtonField>
  );
}

/** Step 3's busy indicator (results hidden until done, a busy indicator meanwhile). */
export function Busy({ intent, label }: { intent?: string; label?: string }) {
  const { t } = useTranslation("demo");
  if (!useRunning(intent)) return null;
  return (
    <div className="ds-busy" role="status" aria-live="polite" data-testid="busy">
      <ProgressSpinner style={{ width: 28, height: 28 }} strokeWidth="6" /> {label ?? t("demo:running")}
    </div>
  );
}

/** What step 2 offers and has chosen: a demo page's loader data holds these five. */
export interface RunChoice {
  picture: { id: number; name: string; label: string | null } | null;
  models: { options: { value: string; label: MessageRef }[]; error?: MessageRef | null };
  algorithms: readonly { value: string; label: string }[];
  model: string;
  algorithm: string;
}

/**
 * Step 2 as one card: the model and algorithm, the start button (a form POST with the page's
 * intent and the picked picture), the image's message, what the page adds (`children`), the
 * picked image's line and the busy indicator.
 */
export function RunCard({
  title,
  intent,
  startLabel,
  choice,
  errors,
  children,
}: {
  title: string;
  intent: string;
  startLabel: string;
  choice: RunChoice;
  errors?: { model?: string; algorithm?: string; image?: string };
  children?: React.ReactNode;
}) {
  const { picture, models, algorithms, model, algorithm } = choice;
  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      <Form method="post" aria-label={startLabel} className="ds-toolbar" style={{ alignItems: "flex-start" }}>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="picture" value={picture?.id ?? ""} />
        <ModelAlgorithmFields models={models.options} modelsError={models.error} algorithms={algorithms} model={model} algorithm={algorithm} errors={errors} />
        <StartButton label={startLabel} intent={intent} />
      </Form>
      <FieldError id="image-error" message={errors?.image} />
      {children}
      <PickedLine picture={picture} />
      <Busy intent={intent} />
    </div>
  );
}

/** The picked image's line under step 2 (with its ground truth where it has one). */
export function PickedLine({ picture, words = {} }: { picture: { name: string; label: string | null } | null; words?: { noImage?: string } }) {
  const { t } = useTranslation("demo");
  if (!picture) return <p className="muted">{words.noImage ?? t("demo:noImage")}</p>;
  return (
    <p className="muted">{picture.label ? t("demo:imageWithTruth", { name: picture.name, label: picture.label }) : t("demo:image", { name: picture.name })}</p>
  );
}

/**
 * The demo's toasts: "The algorithm executed successfully!" once per result shown (its
 * id, not every render), and on failure an error toast for 10 s; plus the success notice that a
 * page without JavaScript shows instead.
 */
export function DemoToasts({ resultId, success, failure }: { resultId: number | null; success: MessageRef; failure?: DemoFailure }) {
  const toast = useRef<Toast>(null);
  const { t } = useTranslation("demo");
  useEffect(() => {
    if (resultId !== null) toast.current?.show({ severity: "success", summary: translateMessage(t, success), life: 3000 });
  }, [resultId, success, t]);
  useEffect(() => {
    if (failure)
      toast.current?.show({
        severity: "error",
        summary: t(failure.busy ? "demo:failed.busyTitle" : "demo:failed.title"),
        detail: t(failure.busy ? "demo:msg.busy" : "demo:failed.toast"),
        life: 10_000,
      });
  }, [failure, t]);
  return <Toast ref={toast} position="bottom-right" />;
}

/** The success notice (the success toast's words), shown on the page itself so it is there without JavaScript too. */
export function SuccessNotice({ show, message }: { show: boolean; message: MessageRef }) {
  const { t } = useTranslation("demo");
  if (!show) return null;
  return (
    <Notice kind="success">
      <span data-testid="success">{translateMessage(t, message)}</span>
    </Notice>
  );
}
