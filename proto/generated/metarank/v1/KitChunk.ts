// Original file: proto/metarank/v1/kit.proto

import type { KitHeader as _metarank_v1_KitHeader, KitHeader__Output as _metarank_v1_KitHeader__Output } from '../../metarank/v1/KitHeader.ts';

export interface KitChunk {
  'header'?: (_metarank_v1_KitHeader | null);
  'data'?: (Buffer | Uint8Array | string);
  'payload'?: "header"|"data";
}

export interface KitChunk__Output {
  'header'?: (_metarank_v1_KitHeader__Output | null);
  'data'?: (Buffer);
  'payload'?: "header"|"data";
}
