// A labelled text input with its error line under it: the field layout of every form
// (div.field > label, input, error; docs/accessibility.md), written once.
import { forwardRef, type ReactNode } from "react";
import { InputText, type InputTextProps } from "primereact/inputtext";
import type { MessageRef } from "~/lib/forms/messages.ts";
import { FieldError } from "./FieldError.tsx";

type Props = Omit<InputTextProps, "id"> & {
  id: string;
  label: ReactNode;
  /** The field's message ref, shown under it (id `<id>-error`). */
  error?: MessageRef;
};

export const TextField = forwardRef<HTMLInputElement, Props>(function TextField({ id, label, error, name = id, ...input }, ref) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <InputText ref={ref} id={id} name={name} {...input} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
});
