// Original file: proto/metarank/v1/telemetry.proto

import type { Long } from '@grpc/proto-loader';

export interface TelemetrySnapshotRequest {
  'sinceMs'?: (number | string | Long);
}

export interface TelemetrySnapshotRequest__Output {
  'sinceMs': (number);
}
