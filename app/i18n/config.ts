// The two interface languages and the i18next settings shared by the server render and the
// browser. Translations live in app/locales/<lng>/<namespace>.json, one namespace per area;
// tests/unit/i18n.test.ts fails when a key exists in one language only (docs/i18n.md).
import enAccount from "~/locales/en/account.json";
import enAdmin from "~/locales/en/admin.json";
import enBoard from "~/locales/en/board.json";
import enCommon from "~/locales/en/common.json";
import enDatasets from "~/locales/en/datasets.json";
import enDemo from "~/locales/en/demo.json";
import enDocs from "~/locales/en/docs.json";
import enForms from "~/locales/en/forms.json";
import enHome from "~/locales/en/home.json";
import enInspection from "~/locales/en/inspection.json";
import enLabels from "~/locales/en/labels.json";
import enConcepts from "~/locales/en/concepts.json";
import enSubmission from "~/locales/en/submission.json";
import enTutorial from "~/locales/en/tutorial.json";
import enVqa from "~/locales/en/vqa.json";
import enSegmentation from "~/locales/en/segmentation.json";
import enMultilabel from "~/locales/en/multilabel.json";
import enTasks from "~/locales/en/tasks.json";
import enTrees from "~/locales/en/trees.json";
import enSebow from "~/locales/en/sebow.json";
import enDemos from "~/locales/en/demos.json";
import zhAccount from "~/locales/zh/account.json";
import zhAdmin from "~/locales/zh/admin.json";
import zhBoard from "~/locales/zh/board.json";
import zhCommon from "~/locales/zh/common.json";
import zhDatasets from "~/locales/zh/datasets.json";
import zhDemo from "~/locales/zh/demo.json";
import zhDocs from "~/locales/zh/docs.json";
import zhForms from "~/locales/zh/forms.json";
import zhHome from "~/locales/zh/home.json";
import zhInspection from "~/locales/zh/inspection.json";
import zhLabels from "~/locales/zh/labels.json";
import zhConcepts from "~/locales/zh/concepts.json";
import zhSubmission from "~/locales/zh/submission.json";
import zhTutorial from "~/locales/zh/tutorial.json";
import zhVqa from "~/locales/zh/vqa.json";
import zhSegmentation from "~/locales/zh/segmentation.json";
import zhMultilabel from "~/locales/zh/multilabel.json";
import zhTasks from "~/locales/zh/tasks.json";
import zhTrees from "~/locales/zh/trees.json";
import zhSebow from "~/locales/zh/sebow.json";
import zhDemos from "~/locales/zh/demos.json";

export const LANGUAGES = ["en", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = "en";
export const DEFAULT_NAMESPACE = "common";

export const resources = {
  en: {
    account: enAccount,
    admin: enAdmin,
    common: enCommon,
    home: enHome,
    docs: enDocs,
    board: enBoard,
    forms: enForms,
    submission: enSubmission,
    tutorial: enTutorial,
    datasets: enDatasets,
    demo: enDemo,
    inspection: enInspection,
    labels: enLabels,
    concepts: enConcepts,
    vqa: enVqa,
    segmentation: enSegmentation,
    multilabel: enMultilabel,
    tasks: enTasks,
    trees: enTrees,
    sebow: enSebow,
    demos: enDemos,
  },
  zh: {
    account: zhAccount,
    admin: zhAdmin,
    common: zhCommon,
    home: zhHome,
    docs: zhDocs,
    board: zhBoard,
    forms: zhForms,
    submission: zhSubmission,
    tutorial: zhTutorial,
    datasets: zhDatasets,
    demo: zhDemo,
    inspection: zhInspection,
    labels: zhLabels,
    concepts: zhConcepts,
    vqa: zhVqa,
    segmentation: zhSegmentation,
    multilabel: zhMultilabel,
    tasks: zhTasks,
    trees: zhTrees,
    sebow: zhSebow,
    demos: zhDemos,
  },
} as const;

export type Namespace = keyof (typeof resources)["en"];
export const NAMESPACES = Object.keys(resources.en) as Namespace[];

export const i18nConfig = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: FALLBACK_LANGUAGE,
  defaultNS: DEFAULT_NAMESPACE,
  ns: NAMESPACES,
  // React escapes what it renders; i18next must not escape a second time.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The `<html lang>` value of a language (BCP 47): Simplified Chinese as used in mainland China. */
export function htmlLang(lng: Language): string {
  return lng === "zh" ? "zh-CN" : "en";
}
