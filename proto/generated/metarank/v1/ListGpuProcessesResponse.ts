// Original file: proto/metarank/v1/telemetry.proto

import type { GpuProcess as _metarank_v1_GpuProcess, GpuProcess__Output as _metarank_v1_GpuProcess__Output } from '../../metarank/v1/GpuProcess.ts';

export interface ListGpuProcessesResponse {
  'processes'?: (_metarank_v1_GpuProcess)[];
  'error'?: (string);
}

export interface ListGpuProcessesResponse__Output {
  'processes': (_metarank_v1_GpuProcess__Output)[];
  'error': (string);
}
