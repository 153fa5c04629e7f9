import { useTranslation } from "react-i18next";
import { translateMessage, type MessageRef } from "~/lib/forms/messages.ts";

/** A field's error under the field; `message` is a message ref (a key, or a text shown as it is). */
export function FieldError({ id, message }: { id: string; message?: MessageRef }) {
  const { t } = useTranslation();
  return message ? (
    <small id={id} className="field-error" role="alert">
      {translateMessage(t, message)}
    </small>
  ) : null;
}

/** A notice box; a string child that is a message ref is translated. */
export function Notice({ kind, children }: { kind: "info" | "success" | "error" | "warn"; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {typeof children === "string" ? translateMessage(t, children) : children}
    </div>
  );
}
