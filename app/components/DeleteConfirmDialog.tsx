// The confirmation of a deletion (/admin/manage_server, /task/my_tasks). Without JavaScript the
// list's delete button is a GET that shows the question in the page, whose button posts the
// deletion with confirmed=1; with JavaScript PrimeReact's ConfirmDialog over the list posts the
// same form. Cancel (or Escape) goes back to the list either way.
import type { ReactNode } from "react";
import { Form, Link, useNavigate, useNavigation, useSubmit } from "@remix-run/react";
import { Button } from "primereact/button";
import { ConfirmDialog } from "primereact/confirmdialog";
import { useHydrated } from "~/lib/useHydrated.ts";

export interface DeleteConfirmation {
  header: string;
  question: ReactNode;
  acceptLabel: string;
  rejectLabel: string;
  /** Where the deletion is posted, with `fields` (and intent=delete, confirmed=1). */
  action: string;
  fields: [string, string][];
  /** The list to return to on Cancel. */
  backTo: string;
}

/** The question in the page before hydration, the dialog after. */
export function ConfirmDeletion(props: DeleteConfirmation) {
  return useHydrated() ? <DeleteConfirmDialog {...props} /> : <DeleteConfirmPanel {...props} />;
}

/** Without JavaScript: the question as a section of the page, with Cancel and Delete. */
function DeleteConfirmPanel({ header, question, acceptLabel, rejectLabel, action, fields, backTo }: DeleteConfirmation) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="notice notice-warn" role="alertdialog" aria-label={header} data-testid="confirm-delete-step">
      <p>{question}</p>
      <Form method="post" action={action} className="decision-buttons" preventScrollReset>
        <input type="hidden" name="intent" value="delete" />
        {fields.map(([name, value], i) => (
          <input key={i} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirmed" value="1" />
        <Link to={backTo} className="p-button p-button-text" preventScrollReset replace>
          {rejectLabel}
        </Link>
        <Button type="submit" label={acceptLabel} severity="danger" loading={busy} data-testid="confirm-delete" />
      </Form>
    </div>
  );
}

/** With JavaScript: PrimeReact's ConfirmDialog; Delete posts the same form, Cancel or Escape returns to the list. */
function DeleteConfirmDialog({ header, question, acceptLabel, rejectLabel, action, fields, backTo }: DeleteConfirmation) {
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
