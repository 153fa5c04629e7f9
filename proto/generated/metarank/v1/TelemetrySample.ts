// Original file: proto/metarank/v1/telemetry.proto

import type { GpuStats as _metarank_v1_GpuStats, GpuStats__Output as _metarank_v1_GpuStats__Output } from '../../metarank/v1/GpuStats.ts';
import type { Long } from '@grpc/proto-loader';

export interface TelemetrySample {
  'timestampMs'?: (number | string | Long);
  'gpus'?: (_metarank_v1_GpuStats)[];
  'noGpuReason'?: (string);
}

export interface TelemetrySample__Output {
  'timestampMs': (number);
  'gpus': (_metarank_v1_GpuStats__Output)[];
  'noGpuReason': (string);
}
