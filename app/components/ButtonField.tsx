// A button (or button-styled link) in a form's row of fields: an empty spacer stands where the
// fields have their label, so the button lines up with their inputs (styles/app.css .field-spacer).
export function ButtonField({ children }: { children: React.ReactNode }) {
  return (
    <div className="field">
      <span className="field-spacer" aria-hidden="true">
        &nbsp;
      </span>
      {children}
    </div>
  );
}
