// The tasks pages' outcome dialogs (they open on a create or delete outcome and close on confirm:
// 创建成功 / 创建失败任务！ / 删除成功 / 删除失败 / the download warning): a PrimeReact Dialog once hydrated; without
// JavaScript the same message renders as a panel whose confirm link goes to `closeTo` (the page
// without the outcome in its address).
import { useNavigate } from "@remix-run/react";
import { Dialog } from "primereact/dialog";
import { Button } from "primereact/button";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/lib/useHydrated.ts";
import { translateMessage } from "~/lib/forms/messages.ts";

export function OutcomeDialog({
  kind,
  message,
  detail,
  closeTo,
}: {
  kind: "success" | "error" | "warn";
  message: string;
  detail?: string | null;
  closeTo: string;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { t } = useTranslation("tasks");
  const body = (
    <div data-testid="task-dialog" data-kind={kind}>
      <p role={kind === "error" ? "alert" : "status"} style={{ fontWeight: 600 }}>
        {translateMessage(t, message)}
      </p>
      {detail ? <p className="muted">{translateMessage(t, detail)}</p> : null}
    </div>
  );
  if (!hydrated)
    return (
      <div className={`card notice notice-${kind}`} style={{ marginBottom: "1rem" }}>
        {body}
        <a href={closeTo} className="p-button p-button-sm">
          {t("confirm")}
        </a>
      </div>
    );
  const close = () => navigate(closeTo, { replace: true, preventScrollReset: true });
  return (
    <Dialog header={t("dialogTitle")} visible onHide={close} style={{ width: "min(440px, 95vw)" }} footer={<Button label={t("confirm")} onClick={close} />}>
      {body}
    </Dialog>
  );
}

/** "--" for an empty value or list (task details show empty lists as --). */
export function orDashes(value: string | number | null | undefined | readonly (string | number)[]): string {
  if (Array.isArray(value)) return value.length ? value.join(", ") : "--";
  return value === null || value === undefined || value === "" ? "--" : String(value);
}
