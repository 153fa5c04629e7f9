// React 18.3's Node renderer (react-dom/server, renderToPipeableStream) writes NUL bytes into the
// HTML when a multi-byte character does not fit at the end of its 2 KiB write buffer: it flushes
// the whole buffer, unused tail included (ReactServerStreamConfigNode writeStringChunk,
// `writeToDestination(destination, currentView)`; React 19 flushes `subarray(0, writtenBytes)`).
// Chinese pages hit it wherever a character lands on that boundary: "服务\0器" was served.
// Until the platform moves to React 19 (primereact 10 and react-vis pin it to 18), the rendered
// document is put together from React's writes by this function, which drops 0x00 bytes. The HTML
// never needs one: React escapes nothing into a raw NUL, loader data is serialised as escaped
// JSON, and form fields refuse control characters (app/.server/forms.server.ts); the HTML parser
// would drop it anyway.

/** React's writes of one document, in order, as one buffer without NUL bytes. */
export function withoutNulBytes(chunks: readonly Uint8Array[]): Buffer {
  const whole = Buffer.concat(chunks);
  if (whole.indexOf(0) < 0) return whole;
  let n = 0;
  for (let i = 0; i < whole.length; i++) if (whole[i] !== 0) whole[n++] = whole[i];
  return whole.subarray(0, n);
}
