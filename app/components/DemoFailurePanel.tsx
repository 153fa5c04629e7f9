// What a demo shows when the sidecar could not run its job (the server's largest compute and GPU
// index, and to try later), shared by every demo page that runs a model.
import { useTranslation } from "react-i18next";
import { translateMessage } from "~/lib/forms/messages.ts";

/** The sidecar's GPU report and the error, each a message ref; `busy` when every worker was taken. */
export type DemoFailure = { gpuIndex: string; maxCompute: string; detail: string; busy?: boolean };

export function DemoFailurePanel({ failure }: { failure: DemoFailure }) {
  const { t } = useTranslation("demo");
  return (
    <div className="card notice-error" role="alert" data-testid="failure-panel" data-busy={failure.busy ? "1" : undefined}>
      <h2 style={{ marginTop: 0 }}>{t(failure.busy ? "failed.busyTitle" : "failed.title")}</h2>
      <p>{t(failure.busy ? "failed.busyWhy" : "failed.why")}</p>
      <p>
        {t("failed.maxCompute")} <strong data-testid="max-compute">{translateMessage(t, failure.maxCompute)}</strong> · {t("failed.gpuIndex")}{" "}
        <strong data-testid="gpu-index">{translateMessage(t, failure.gpuIndex)}</strong>
      </p>
      <p>{t("failed.later")}</p>
      <p className="muted" style={{ fontSize: ".85rem" }}>
        {t("failed.detail")} {translateMessage(t, failure.detail)}
      </p>
    </div>
  );
}
