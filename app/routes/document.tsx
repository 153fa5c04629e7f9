import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { i18nServer } from "~/.server/i18n.server.ts";

export const handle = { i18n: "docs" };

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await i18nServer.getFixedT(request, "docs");
  return { title: t("metaTitle") };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

const SECTION_IDS = ["concepts", "datasets", "algorithms", "workflow", "users"] as const;

export default function Documentation() {
  const { t, i18n } = useTranslation("docs");
  const [active, setActive] = useState<string>(SECTION_IDS[0]);
  // Highlight the section being read: the last section whose top has scrolled past the header.
  useEffect(() => {
    const onScroll = () => {
      let current: string = SECTION_IDS[0];
      for (const id of SECTION_IDS) {
        const el = document.getElementById(id);
        if (el && el.getBoundingClientRect().top <= 120) current = id;
      }
      setActive(current);
    };
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  return (
    <div className="doc-layout">
      <nav className="doc-menu card" aria-label={t("menuLabel")}>
        {SECTION_IDS.map((id) => (
          <a
            key={id}
            href={`#${id}`}
            className={active === id ? "active" : undefined}
            aria-current={active === id ? "true" : undefined}
            onClick={(e) => {
              e.preventDefault();
              document.getElementById(id)?.scrollIntoView({ behavior: "smooth" });
              history.replaceState(null, "", `#${id}`);
              setActive(id);
            }}
          >
            {t(`sections.${id}`)}
          </a>
        ))}
      </nav>
      <div>
        <h1 className="visually-hidden">{t("metaTitle")}</h1>
        <section id="concepts" className="card doc-section">
          <h2>{t("sections.concepts")}</h2>
          <p>{t("concepts.p1")}</p>
          <p>{t("concepts.p2")}</p>
          <p>{t("concepts.p3")}</p>
          <figure>
            {/* Real screens of this platform with captions in both languages (make doc-video regenerates all three). */}
            <video controls preload="metadata" width="100%" poster="/doc/intro-poster.png" data-testid="doc-video">
              <source src="/doc/intro.webm" type="video/webm" />
              <track kind="captions" src="/doc/intro.en.vtt" srcLang="en" label="English" default={i18n.language !== "zh"} />
              <track kind="captions" src="/doc/intro.zh.vtt" srcLang="zh" label="中文" default={i18n.language === "zh"} />
              {t("concepts.noVideo")}
            </video>
            <figcaption className="muted">{t("concepts.video")}</figcaption>
          </figure>
        </section>
        <section id="datasets" className="card doc-section">
          <h2>{t("sections.datasets")}</h2>
          <p>{t("datasets.p1")}</p>
          <ul>
            <li>{t("datasets.fashion")}</li>
            <li>{t("datasets.scenes")}</li>
            <li>{t("datasets.operator")}</li>
          </ul>
          <p>{t("datasets.choose")}</p>
        </section>
        <section id="algorithms" className="card doc-section">
          <h2>{t("sections.algorithms")}</h2>
          <p>{t("algorithms.p1")}</p>
          <ul>
            <li>{t("algorithms.gradient")}</li>
            <li>{t("algorithms.cam")}</li>
            <li>{t("algorithms.perturbation")}</li>
          </ul>
          <p>{t("algorithms.choose")}</p>
        </section>
        <section id="workflow" className="card doc-section">
          <h2>{t("sections.workflow")}</h2>
          <ol>
            <li>{t("workflow.read")}</li>
            <li>{t("workflow.evaluate")}</li>
            <li>{t("workflow.score")}</li>
            <li>{t("workflow.submit")}</li>
            <li>{t("workflow.approve")}</li>
          </ol>
        </section>
        <section id="users" className="card doc-section">
          <h2>{t("sections.users")}</h2>
          <ul>
            <li>{t("users.visitor")}</li>
            <li>{t("users.user")}</li>
            <li>{t("users.admin")}</li>
          </ul>
        </section>
      </div>
    </div>
  );
}
