// The browser entry: i18next starts in the language the server rendered (`<html lang>`), with
// the bundled translations, before React hydrates, so the first client render matches the HTML.
import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { FALLBACK_LANGUAGE, i18nConfig, resources } from "~/i18n/config.ts";

async function hydrate() {
  const lang = document.documentElement.lang.startsWith("zh") ? "zh" : FALLBACK_LANGUAGE;
  await i18next.use(initReactI18next).init({ ...i18nConfig, resources, lng: lang });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
