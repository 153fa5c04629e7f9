// Original file: proto/metarank/v1/tree.proto

import type { Long } from '@grpc/proto-loader';

export interface FileChunk {
  'data'?: (Buffer | Uint8Array | string);
  'contentType'?: (string);
  'fileName'?: (string);
  'totalBytes'?: (number | string | Long);
}

export interface FileChunk__Output {
  'data': (Buffer);
  'contentType': (string);
  'fileName': (string);
  'totalBytes': (number);
}
