export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <small id={id} className="field-error" role="alert">
      {message}
    </small>
  ) : null;
}

export function Notice({ kind, children }: { kind: "info" | "success" | "error" | "warn"; children: React.ReactNode }) {
  return (
    <div className={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}
