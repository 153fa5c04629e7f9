// Prepared boards kept between InsertCandidate calls (docs/metascore-performance.md "Boards kept
// between calls"): a small least-recently-used map from the board version the caller names
// (proto/metarank/v1/metascore.proto, InsertCandidateRequest.board_version) to what the service
// prepared from that board. The version is the caller's promise that equal versions mean equal
// boards (the web app hashes the stored rows), so an entry is never revalidated; it is only
// replaced, when the same version is sent in full again, or dropped.

/** How much of the sidecar's memory an entry holds, in the units the limits count. */
export interface BoardWeight {
  /** Stored methods on the board. */
  methods: number;
  /** Stored case scores: methods × cases (MoRF and LeRF). */
  scores: number;
}

export interface BoardCacheLimits {
  /** Boards kept at most. */
  boards: number;
  /** Stored methods over every kept board, at most. */
  methods: number;
  /** Stored case scores over every kept board, at most. */
  scores: number;
}

/**
 * The sidecar's limits: a few suites' boards, and memory bounded whatever their size. A kept board
 * of 10,000 methods × 22 cases holds about 9.5 MB (its packed scores, ids, κ, rankings, the stored
 * board's rows as messages and their encoding; measured with `node --expose-gc`, heap and buffers
 * after a collection), so the method limit keeps the cache under about 40 MB; the score limit
 * (16 MB of packed doubles) bounds boards of many cases.
 */
export const BOARD_CACHE_LIMITS: BoardCacheLimits = { boards: 8, methods: 40_000, scores: 2_000_000 };

/**
 * How a FAILED_PRECONDITION for a board left out that the sidecar does not keep begins: the web
 * app (app/.server/board.server.ts) sends the board in full when it reads it.
 */
export const UNKNOWN_BOARD_VERSION = "unknown board version";

/** Versions longer than this are refused (a hash is 43–64 characters): an entry's key stays small. */
export const MAX_BOARD_VERSION_LENGTH = 128;

interface Entry<T> {
  value: T;
  weight: BoardWeight;
}

/** Least-recently-used map of boards by version, within `limits`. */
export class BoardCache<T> {
  // A Map iterates in insertion order: deleting and re-inserting on each use keeps the least
  // recently used entry first.
  private readonly entries = new Map<string, Entry<T>>();
  private methods = 0;
  private scores = 0;

  constructor(readonly limits: BoardCacheLimits = BOARD_CACHE_LIMITS) {}

  /** The board kept under `version`, now the most recently used; undefined if none. */
  get(version: string): T | undefined {
    const entry = this.entries.get(version);
    if (!entry) return undefined;
    this.entries.delete(version);
    this.entries.set(version, entry);
    return entry.value;
  }

  /**
   * Keeps `value` under `version` (replacing what was kept under it), then drops the least
   * recently used boards until every limit holds. A board over a limit on its own is not kept.
   * Returns whether it was kept.
   */
  set(version: string, value: T, weight: BoardWeight): boolean {
    this.delete(version);
    if (weight.methods > this.limits.methods || weight.scores > this.limits.scores || this.limits.boards < 1) return false;
    this.entries.set(version, { value, weight });
    this.methods += weight.methods;
    this.scores += weight.scores;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.boards && this.methods <= this.limits.methods && this.scores <= this.limits.scores) break;
      this.delete(oldest);
    }
    return true;
  }

  delete(version: string): void {
    const entry = this.entries.get(version);
    if (!entry) return;
    this.entries.delete(version);
    this.methods -= entry.weight.methods;
    this.scores -= entry.weight.scores;
  }

  clear(): void {
    this.entries.clear();
    this.methods = 0;
    this.scores = 0;
  }

  /** Versions kept, least recently used first. */
  versions(): string[] {
    return [...this.entries.keys()];
  }

  /** What the kept boards weigh together. */
  weight(): BoardWeight {
    return { methods: this.methods, scores: this.scores };
  }
}
