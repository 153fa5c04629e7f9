// The public dataset gallery: tab 'Meta-rank datasets' (default) with the nine benchmark datasets
// and the platform's installed ones, and tab 'Other benchmark datasets' with public datasets users
// shared. Dialogs (introduction, preview) are URL states: PrimeReact dialogs with JavaScript,
// server-rendered sections without it.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { Dialog } from "primereact/dialog";
import { TabView, TabPanel } from "primereact/tabview";
import { getUser } from "~/.server/session.server.ts";
import { recordImpression } from "~/.server/searchAnalytics.server.ts";
import { datasetIntros, galleryCards, listPictures, pageOf, platformPictureAt, searchDatasets } from "~/.server/datasets.server.ts";
import { Pager } from "~/components/Pager.tsx";
import { PictureTile } from "~/components/datasets/PictureTile.tsx";
import { Notice } from "~/components/FieldError.tsx";
import { DATA_DETAILS_WARNING } from "~/components/datasets/messages.ts";
import { DatasetSearch } from "~/components/datasets/DatasetSearch.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { useTranslation } from "react-i18next";
import { i18nServer } from "~/.server/i18n.server.ts";
import { fragmentKey, sharedData } from "~/.server/fragments.server.tsx";
import { parseForm } from "~/lib/forms/parse.ts";
import { DATASET_MSG, EXAMPLES_PER_PAGE, PREVIEWS_PER_PAGE, searchSchema } from "~/lib/rules/datasets.ts";

export const handle = { i18n: "datasets" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const sp0 = new URL(request.url).searchParams;
  // Only the users' tab depends on who is looking (their own private sets); the others are the same for everyone.
  const viewer = sp0.get("tab") === "users" ? await getUser(request) : null;
  const t = await i18nServer.getFixedT(request, "datasets");
  const title = `${t("gallery.title")} — Meta-Rank`;
  const sp = new URL(request.url).searchParams;
  if (sp.get("tab") === "users") {
    const type = sp.get("type") === "user" ? "user" : "name";
    const search = parseForm(sp, searchSchema);
    if (!search.ok) {
      const result = { items: [], total: 0, page: 1, pageCount: 1, noMatch: false };
      return data(
        { tab: "users" as const, title, type, q: "", result, signedIn: Boolean(viewer), searchError: search.errors.q ?? DATASET_MSG.searchTooLong },
        { status: 400 },
      );
    }
    const q = search.value.q;
    const result = await searchDatasets(viewer, { type, q, page: pageOf(sp.get("page")), onlyUsers: true, perPage: PREVIEWS_PER_PAGE });
    if (type === "name") await recordImpression(request, q);
    return { tab: "users" as const, title, type, q, result, signedIn: Boolean(viewer), searchError: undefined as string | undefined };
  }
  // The cards are the same for every viewer: loaded once per content version.
  const cards = await sharedData(fragmentKey("gallery-cards", null, null), galleryCards);
  const examplesCard = cards.find((c) => c.key === sp.get("examples") && c.datasetId != null);
  if (examplesCard) {
    // The examples view (docs/product.md "Datasets and labelling"): one dataset's examples, 30 a page, with Back to Preview.
    const pictures = await listPictures(examplesCard.datasetId!, pageOf(sp.get("page")), EXAMPLES_PER_PAGE);
    return { tab: "examples" as const, title: `${examplesCard.title} — ${title}`, slug: examplesCard.key, dataTitle: examplesCard.title, pictures };
  }
  const intros = datasetIntros();
  const introKey = sp.get("intro");
  const intro = introKey && intros.has(introKey) ? intros.get(introKey)! : null;
  const lang: "en" | "zh" = sp.get("lang") === "zh" ? "zh" : "en";
  const detailsKey = sp.get("details");
  // The storage warning is about data this server does not hold: an installed dataset's details are its pictures.
  const installedCard = cards.find((c) => c.key === detailsKey && c.datasetId != null && c.samples.length > 0);
  if (installedCard) throw redirect(`/datasetPreview?examples=${encodeURIComponent(installedCard.key)}`);
  const details = detailsKey && cards.some((c) => c.key === detailsKey) ? detailsKey : null;
  const previewCard = cards.find((c) => c.key === sp.get("preview")) ?? null;
  const preview = previewCard?.datasetId ? await platformPictureAt(previewCard.datasetId, Number(sp.get("i") ?? 0)) : null;
  return {
    tab: "public" as const,
    title,
    cards,
    intro: intro ? { ...intro, samples: cards.find((c) => c.key === intro.key)?.samples ?? [] } : null,
    lang,
    details,
    preview: previewCard ? { key: previewCard.key, title: previewCard.title, shot: preview } : null,
  };
}

export default function DatasetPreview() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("datasets");
  return (
    <section>
      <DatasetStyles />
      <h1>{t("gallery.title")}</h1>
      <nav className="tabs" aria-label={t("gallery.tabs")}>
        <Link to="/datasetPreview" className={"tab" + (d.tab === "public" ? " active" : "")} aria-current={d.tab === "public" ? "page" : undefined}>
          {t("gallery.metaRank")}
        </Link>
        <Link to="/datasetPreview?tab=users" className={"tab" + (d.tab === "users" ? " active" : "")} aria-current={d.tab === "users" ? "page" : undefined}>
          {t("gallery.others")}
        </Link>
      </nav>
      {d.tab === "public" ? <PublicTab {...d} /> : d.tab === "users" ? <UsersTab {...d} /> : <ExamplesView {...d} />}
    </section>
  );
}

type PublicData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { tab: "public" }>;
type UsersData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { tab: "users" }>;
type ExamplesData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { tab: "examples" }>;

function ExamplesView({ slug, dataTitle: title, pictures }: ExamplesData) {
  const { t } = useTranslation("datasets");
  return (
    <>
      <p>
        <Link to="/datasetPreview" className="p-button p-button-outlined p-component">
          <i className="pi pi-arrow-left" style={{ marginRight: ".4rem" }} /> {t("gallery.back")}
        </Link>
      </p>
      <h2>{t("gallery.examples", { title, count: pictures.total })}</h2>
      <div className="ds-grid" style={{ gridTemplateColumns: "repeat(6, minmax(0, 1fr))" }} data-testid="examples-grid">
        {pictures.items.map((p) => (
          <PictureTile key={p.id} picture={p} href={p.url} />
        ))}
      </div>
      <Pager
        page={pictures.page}
        pageCount={pictures.pageCount}
        href={(page) => `/datasetPreview?examples=${slug}&page=${page}`}
        label={t("gallery.examplePages")}
      />
    </>
  );
}

function PublicTab({ cards, intro, lang, details, preview }: PublicData) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const close = () => navigate("/datasetPreview", { replace: true, preventScrollReset: true });
  const meta = cards.filter((c) => c.metaRank);
  const installed = cards.filter((c) => !c.metaRank);
  const { t } = useTranslation("datasets");
  return (
    <>
      {details ? (
        <Notice kind="warn">
          <span data-testid="data-details-warning">{t(DATA_DETAILS_WARNING)}</span>
        </Notice>
      ) : null}
      <div className="ds-cards">
        {meta.map((c) => (
          <GalleryCardView key={c.key} card={c} />
        ))}
      </div>
      {installed.length ? (
        <>
          <h2 style={{ marginTop: "2rem" }}>{t("installedHere")}</h2>
          <p className="muted">{t("gallery.installedLead")}</p>
          <div className="ds-cards">
            {installed.map((c) => (
              <GalleryCardView key={c.key} card={c} />
            ))}
          </div>
        </>
      ) : null}
      {intro ? (
        hydrated ? (
          <Dialog header={t("gallery.introFor", { title: intro.title })} visible draggable onHide={close} style={{ width: "min(760px, 95vw)" }}>
            <TabView activeIndex={lang === "zh" ? 1 : 0}>
              <TabPanel header="English">
                <IntroBody intro={intro} lang="en" />
              </TabPanel>
              <TabPanel header="中文">
                <IntroBody intro={intro} lang="zh" />
              </TabPanel>
            </TabView>
          </Dialog>
        ) : (
          <div className="card" id="introduction" role="dialog" aria-label={t("gallery.introFor", { title: intro.title })}>
            <h2 style={{ marginTop: 0 }}>{t("gallery.introFor", { title: intro.title })}</h2>
            <nav className="tabs">
              <a href={`/datasetPreview?intro=${intro.key}&lang=en#introduction`} className={"tab" + (lang === "en" ? " active" : "")}>
                English
              </a>
              <a href={`/datasetPreview?intro=${intro.key}&lang=zh#introduction`} className={"tab" + (lang === "zh" ? " active" : "")}>
                中文
              </a>
            </nav>
            <IntroBody intro={intro} lang={lang} />
            <a href="/datasetPreview">{t("close")}</a>
          </div>
        )
      ) : null}
      {preview ? (
        hydrated ? (
          <Dialog header={t("gallery.previewOf", { title: preview.title })} visible draggable onHide={close} style={{ width: "min(560px, 95vw)" }}>
            <PreviewBody preview={preview} />
          </Dialog>
        ) : (
          <div className="card" id="preview" role="dialog" aria-label={t("gallery.previewOf", { title: preview.title })}>
            <h2 style={{ marginTop: 0 }}>{t("gallery.previewOf", { title: preview.title })}</h2>
            <PreviewBody preview={preview} />
            <a href="/datasetPreview">{t("close")}</a>
          </div>
        )
      ) : null}
    </>
  );
}

function GalleryCardView({ card }: { card: PublicData["cards"][number] }) {
  const { t } = useTranslation("datasets");
  return (
    <div className="card ds-card" data-gallery={card.key}>
      <h3>{card.title}</h3>
      <div className="ds-samples">
        {card.samples.length
          ? card.samples.map((p, i) => (
              <Link key={p.id} to={`/datasetPreview?preview=${card.key}&i=${i}#preview`} preventScrollReset title={t("gallery.clickPreview")}>
                <img src={p.thumbUrl} alt={p.label ? `${card.title}: ${p.label}` : card.title} loading="lazy" />
              </Link>
            ))
          : Array.from({ length: 3 }, (_, i) => (
              <span key={i} className="ds-empty">
                {i === 1 ? t("gallery.notInstalledShort") : ""}
              </span>
            ))}
      </div>
      {card.samples.length ? (
        <p className="muted" style={{ margin: "0 0 .75rem" }}>
          <Link to={`/datasetPreview?examples=${card.key}`}>{t("gallery.picturesHere", { count: card.total })}</Link>
        </p>
      ) : (
        <p className="muted" style={{ margin: "0 0 .75rem" }} data-testid="not-installed">
          {t("gallery.notInstalled", { title: card.title })}
        </p>
      )}
      <div className="ds-toolbar" style={{ marginBottom: 0 }}>
        <Link
          to={card.samples.length ? `/datasetPreview?examples=${card.key}` : `/datasetPreview?details=${card.key}`}
          className="p-button p-button-outlined p-component"
          preventScrollReset
        >
          {t("gallery.dataDetails")}
        </Link>
        <Link to={`/datasetPreview?intro=${card.key}#introduction`} className="p-button p-component" preventScrollReset>
          {t("gallery.introduction")}
        </Link>
      </div>
    </div>
  );
}

function IntroBody({ intro, lang }: { intro: NonNullable<PublicData["intro"]>; lang: "en" | "zh" }) {
  return (
    <div lang={lang === "zh" ? "zh-CN" : "en"}>
      {intro[lang].map((para, i) => (
        <p key={i}>{para}</p>
      ))}
      {intro.samples.length ? (
        <div className="ds-preview-pics" style={{ marginBottom: "1rem" }}>
          {intro.samples.map((p) => (
            <img key={p.id} src={p.thumbUrl} alt={p.label ?? p.name} />
          ))}
        </div>
      ) : null}
      {intro.references.length ? (
        <>
          <h4>{lang === "zh" ? "参考链接" : "References"}</h4>
          <ul>
            {intro.references.map((r) => (
              <li key={r.url}>
                <a href={r.url} target="_blank" rel="noopener noreferrer">
                  {r.label}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function PreviewBody({ preview }: { preview: NonNullable<PublicData["preview"]> }) {
  const { t } = useTranslation("datasets");
  const shot = preview.shot;
  if (!shot) return <p className="muted">{t("gallery.notInstalledPlain", { title: preview.title })}</p>;
  const at = (i: number) => `/datasetPreview?preview=${preview.key}&i=${i}#preview`;
  return (
    <div className="ds-viewer">
      <img src={shot.picture.url} alt={shot.picture.label ?? shot.picture.name} />
      <p>
        {shot.picture.label ? <strong>{shot.picture.label}</strong> : null} · {shot.index + 1} / {shot.total}
      </p>
      <div className="ds-toolbar" style={{ justifyContent: "center" }}>
        {shot.index > 0 ? (
          <Link to={at(shot.index - 1)} replace preventScrollReset className="p-button p-button-outlined p-component">
            ‹ {t("previous")}
          </Link>
        ) : null}
        {shot.index < shot.total - 1 ? (
          <Link to={at(shot.index + 1)} replace preventScrollReset className="p-button p-button-outlined p-component">
            {t("next")} ›
          </Link>
        ) : null}
      </div>
    </div>
  );
}

function UsersTab({ type, q, result, signedIn, searchError }: UsersData) {
  const { t } = useTranslation("datasets");
  return (
    <>
      <p className="muted">{signedIn ? t("gallery.usersLead") : t("gallery.usersLeadVisitor")}</p>
      <DatasetSearch
        action="/datasetPreview"
        search={{ type, q, result, searchError }}
        hidden={{ tab: "users" }}
        pickRoute="/datasetInDetail"
        pickLabel={t("open")}
        pageHref={(page) => `/datasetPreview?${new URLSearchParams({ tab: "users", type, q, page: String(page) })}`}
      />
    </>
  );
}
