// A minimal WebM (Matroska/EBML) reader for tests: the duration, the video track's size and codec,
// and every frame's size and key flag, read from the container itself so that checking the
// documentation video needs neither ffprobe nor a decoder.

const ID = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  CodecID: 0x86,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cluster: 0x1f43b675,
  ClusterTimecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
} as const;
/** Elements whose content is more elements. */
const MASTER = new Set<number>([ID.Segment, ID.Info, ID.Tracks, ID.TrackEntry, ID.Video, ID.Cluster, ID.BlockGroup]);

export interface WebmFrame {
  /** milliseconds from the start */
  time: number;
  /** bytes of the encoded frame */
  bytes: number;
  key: boolean;
}
export interface WebmInfo {
  durationS: number;
  codec: string;
  width: number;
  height: number;
  frames: WebmFrame[];
}

/** A variable-length integer: its value (length marker kept for IDs, removed for sizes) and length. */
function vint(buf: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number } {
  const first = buf[at];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8) throw new Error(`invalid EBML variable-length integer at ${at}`);
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + buf[at + i];
    if (buf[at + i] !== 0xff) allOnes = false;
  }
  // An unknown size (all value bits set) runs to the end of the parent.
  return { value: !keepMarker && allOnes ? -1 : value, length };
}

const uint = (buf: Uint8Array, at: number, size: number) => {
  let v = 0;
  for (let i = 0; i < size; i++) v = v * 256 + buf[at + i];
  return v;
};

export function readWebm(bytes: Uint8Array): WebmInfo {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const info: WebmInfo = { durationS: NaN, codec: "", width: 0, height: 0, frames: [] };
  let scale = 1_000_000; // TimecodeScale: nanoseconds per tick (Matroska's default)
  let durationTicks = NaN;
  let clusterTime = 0;
  if (uint(bytes, 0, 4) !== ID.EBML) throw new Error("not an EBML file");

  const walk = (from: number, to: number) => {
    let at = from;
    while (at < to) {
      const id = vint(bytes, at, true);
      const size = vint(bytes, at + id.length, false);
      const start = at + id.length + size.length;
      const end = size.value < 0 ? to : Math.min(to, start + size.value);
      switch (id.value) {
        case ID.TimecodeScale:
          scale = uint(bytes, start, end - start);
          break;
        case ID.Duration:
          durationTicks = end - start === 4 ? view.getFloat32(start) : view.getFloat64(start);
          break;
        case ID.CodecID:
          info.codec = new TextDecoder().decode(bytes.subarray(start, end));
          break;
        case ID.PixelWidth:
          info.width = uint(bytes, start, end - start);
          break;
        case ID.PixelHeight:
          info.height = uint(bytes, start, end - start);
          break;
        case ID.ClusterTimecode:
          clusterTime = uint(bytes, start, end - start);
          break;
        case ID.SimpleBlock:
        case ID.Block: {
          const track = vint(bytes, start, false);
          const head = start + track.length;
          const relative = view.getInt16(head);
          const flags = bytes[head + 2];
          info.frames.push({
            time: ((clusterTime + relative) * scale) / 1e6,
            bytes: end - (head + 3),
            key: id.value === ID.SimpleBlock && (flags & 0x80) !== 0,
          });
          break;
        }
        default:
          if (MASTER.has(id.value)) walk(start, end);
      }
      at = end;
    }
  };
  walk(0, bytes.length);
  info.durationS = (durationTicks * scale) / 1e9;
  return info;
}
