// The version of a stored board that InsertCandidate names (proto/metarank/v1/metascore.proto,
// InsertCandidateRequest.board_version; docs/metascore-performance.md "Boards kept between
// calls"). The sidecar keeps a board it prepared under this version and never checks it again,
// so the version is derived from the very content the board's messages are built from — each
// row's id, its three κ bit for bit and its scores' JSON text — not from counts or timestamps,
// which a write outside the app (an import, a hand edit, a migration) would not move. Equal
// versions then mean equal messages (storedBoard in board.server.ts builds them from exactly
// these fields); a changed board gets a new version and is sent in full once.
import { createHash } from "node:crypto";

/** What a stored board's message is built from (a BoardMethod row). */
export interface VersionedRow {
  id: number | string;
  metascore: number;
  morfMetascore: number;
  lerfMetascore: number;
  scoresJson: string;
}

/**
 * SHA-256 over the rows in board order, each as its id and the length of its scores' JSON (so that
 * the encoding is unambiguous) then that JSON, and after them every κ as its 8 bytes; base64url,
 * 43 characters after a format tag. About 10 ms for 10,000 rows of 22 cases (bench/metascore.ts),
 * far less than reading them; the JSON is hashed as stored, not parsed.
 */
export function boardVersion(rows: readonly VersionedRow[]): string {
  const hash = createHash("sha256");
  const kappas = new Float64Array(3 * rows.length);
  rows.forEach((row, i) => {
    hash.update(`${String(row.id)}\n${row.scoresJson.length}\n`);
    hash.update(row.scoresJson);
    // Number(): a driver that hands DOUBLE back as text gives the value the message would carry.
    kappas[3 * i] = Number(row.metascore);
    kappas[3 * i + 1] = Number(row.morfMetascore);
    kappas[3 * i + 2] = Number(row.lerfMetascore);
  });
  hash.update(new Uint8Array(kappas.buffer));
  return `b1.${hash.digest("base64url")}`;
}
