// A destructive form's submit button that asks first (docs/datasets.md "Deleting asks first"): with
// JavaScript a PrimeReact ConfirmDialog, and the form then carries confirm=yes; without JavaScript
// the button submits the form as it is, and the server answers with a confirmation step (a page
// with the same question and a form that carries confirm=yes), so nothing is deleted on one click
// either way.
import { Button } from "primereact/button";
import { ConfirmDialog } from "primereact/confirmdialog";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/lib/useHydrated.ts";

export function ConfirmSubmit({
  label,
  header,
  message,
  acceptLabel,
  icon = "pi pi-trash",
  loading,
  disabled,
  testId,
}: {
  label: string;
  header: string;
  message: string;
  acceptLabel: string;
  icon?: string;
  loading?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const confirmField = useRef<HTMLInputElement>(null);
  const { t } = useTranslation("datasets");
  if (!hydrated) return <Button type="submit" severity="danger" label={label} icon={icon} loading={loading} disabled={disabled} data-testid={testId} />;
  return (
    <>
      <input ref={confirmField} type="hidden" name="confirm" value="yes" />
      <Button
        type="button"
        severity="danger"
        label={label}
        icon={icon}
        loading={loading}
        disabled={disabled}
        data-testid={testId}
        onClick={() => setOpen(true)}
      />
      <ConfirmDialog
        visible={open}
        onHide={() => setOpen(false)}
        header={header}
        message={message}
        icon="pi pi-exclamation-triangle"
        acceptLabel={acceptLabel}
        rejectLabel={t("mine.keep")}
        acceptClassName="p-button-danger"
        defaultFocus="reject"
        accept={() => confirmField.current?.form?.requestSubmit()}
      />
    </>
  );
}
