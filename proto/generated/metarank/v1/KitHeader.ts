// Original file: proto/metarank/v1/kit.proto

import type { Long } from '@grpc/proto-loader';

export interface KitHeader {
  'suiteId'?: (string);
  'key'?: (string);
  'size'?: (number | string | Long);
  'tasks'?: (number);
  'images'?: (number);
  'task'?: (string);
}

export interface KitHeader__Output {
  'suiteId': (string);
  'key': (string);
  'size': (number);
  'tasks': (number);
  'images': (number);
  'task': (string);
}
