// React 18.3's Node renderer (react-dom/server, renderToPipeableStream) writes NUL bytes into the
// HTML when a multi-byte character does not fit at the end of its 2 KiB write buffer: it flushes
// the whole buffer, unused tail included (ReactServerStreamConfigNode writeStringChunk,
// `writeToDestination(destination, currentView)`; React 19 flushes `subarray(0, writtenBytes)`).
// Chinese pages hit it wherever a character lands on that boundary: "服务\0器" was served.
// Until the platform moves to React 19 (primereact 10 and react-vis pin it to 18), the rendered
// stream passes through this transform, which drops 0x00 bytes. The HTML never needs one: React
// escapes nothing into a raw NUL, loader data is serialised as escaped JSON, and form fields refuse
// control characters (app/.server/forms.server.ts); the HTML parser would drop it anyway.
import { Transform, type TransformCallback } from "node:stream";

export function stripNulBytes(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      if (buf.indexOf(0) < 0) return callback(null, buf);
      const out = Buffer.allocUnsafe(buf.length);
      let n = 0;
      for (let i = 0; i < buf.length; i++) if (buf[i] !== 0) out[n++] = buf[i];
      callback(null, out.subarray(0, n));
    },
  });
}
