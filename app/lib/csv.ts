// The one CSV writer of every download (docs/security.md "Formula-safe CSV"): RFC 4180 (every
// cell quoted, CRLF line ends) and formula-safe. A spreadsheet opening a file runs a cell that
// starts with = + - @ (or a tab or carriage return before one) as a formula, so a text cell that
// starts so gets a leading apostrophe: a method named `=HYPERLINK(…)` is shown, never run.
// Numbers are written as numbers (a negative one is not text and not a formula); NaN is empty.

export type CsvValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: quoted, inner quotes doubled, a text that a spreadsheet would run made inert. */
export function csvCell(value: CsvValue): string {
  let text: string;
  if (value === null || value === undefined) text = "";
  else if (typeof value === "number") text = Number.isFinite(value) ? String(value) : "";
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Rows of cells as a CSV document (CRLF after every row, the last one included). */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvCell).join(",") + "\r\n").join("");
}
