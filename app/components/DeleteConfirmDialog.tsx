// The confirmation of a deletion with JavaScript: PrimeReact's ConfirmDialog over the list. The
// pages also have the step without JavaScript (a GET that shows the question in the page, whose
// button posts the deletion with confirmed=1); this dialog posts the same form, and Cancel or
// Escape goes back to the list. Used by /admin/manage_server and /task/my_tasks.
import type { ReactNode } from "react";
import { useNavigate, useSubmit } from "@remix-run/react";
import { ConfirmDialog } from "primereact/confirmdialog";

export function DeleteConfirmDialog({
  header,
  question,
  acceptLabel,
  rejectLabel,
  action,
  fields,
  backTo,
}: {
  header: string;
  question: ReactNode;
  acceptLabel: string;
  rejectLabel: string;
  /** Where the deletion is posted, with `fields` (and intent=delete, confirmed=1). */
  action: string;
  fields: [string, string][];
  /** The list to return to on Cancel. */
  backTo: string;
}) {
  const navigate = useNavigate();
  const submit = useSubmit();
  const back = () => navigate(backTo, { replace: true, preventScrollReset: true });
  const remove = () => {
    const form = new FormData();
    form.set("intent", "delete");
    for (const [name, value] of fields) form.append(name, value);
    form.set("confirmed", "1");
    submit(form, { method: "post", action, preventScrollReset: true });
  };
  return (
    <ConfirmDialog
      visible
      header={header}
      message={question}
      icon="pi pi-exclamation-triangle"
      acceptLabel={acceptLabel}
      rejectLabel={rejectLabel}
      acceptClassName="p-button-danger"
      defaultFocus="reject"
      accept={remove}
      reject={back}
      onHide={(result) => {
        if (result !== "accept") back();
      }}
      style={{ width: "min(460px, 95vw)" }}
    />
  );
}
