// The pictures of a demo's results: each captioned with its own alt text, shown side
// by side in .ds-result-images: the input, and an attribution map's heatmap and overlay.
import { useTranslation } from "react-i18next";

/** One picture of the results; its caption is its alt text. */
export function ResultFigure({ src, caption, testId, style }: { src: string; caption: string; testId: string; style?: React.CSSProperties }) {
  return (
    <figure>
      <img src={src} alt={caption} data-testid={testId} style={style} />
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

/** An attribution map's two pictures in the demos' words: the heatmap, and the heatmap over the input. */
export function MapFigures({ heatmapUrl, overlayUrl }: { heatmapUrl: string; overlayUrl: string }) {
  const { t } = useTranslation("demo");
  return (
    <>
      <ResultFigure src={heatmapUrl} caption={t("heatmap")} testId="heatmap" />
      <ResultFigure src={overlayUrl} caption={t("overlay")} testId="overlay" />
    </>
  );
}
