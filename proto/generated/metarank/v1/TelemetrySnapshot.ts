// Original file: proto/metarank/v1/telemetry.proto

import type { GpuStats as _metarank_v1_GpuStats, GpuStats__Output as _metarank_v1_GpuStats__Output } from '../../metarank/v1/GpuStats.ts';
import type { GpuProcess as _metarank_v1_GpuProcess, GpuProcess__Output as _metarank_v1_GpuProcess__Output } from '../../metarank/v1/GpuProcess.ts';
import type { TelemetrySample as _metarank_v1_TelemetrySample, TelemetrySample__Output as _metarank_v1_TelemetrySample__Output } from '../../metarank/v1/TelemetrySample.ts';
import type { Long } from '@grpc/proto-loader';

export interface TelemetrySnapshot {
  'hostname'?: (string);
  'driverVersion'?: (string);
  'cudaVersion'?: (string);
  'noGpuReason'?: (string);
  'gpus'?: (_metarank_v1_GpuStats)[];
  'sampledAtMs'?: (number | string | Long);
  'processes'?: (_metarank_v1_GpuProcess)[];
  'processesError'?: (string);
  'history'?: (_metarank_v1_TelemetrySample)[];
  'intervalMs'?: (number);
  'totalMemoryMib'?: (number | string | Long);
}

export interface TelemetrySnapshot__Output {
  'hostname': (string);
  'driverVersion': (string);
  'cudaVersion': (string);
  'noGpuReason': (string);
  'gpus': (_metarank_v1_GpuStats__Output)[];
  'sampledAtMs': (number);
  'processes': (_metarank_v1_GpuProcess__Output)[];
  'processesError': (string);
  'history': (_metarank_v1_TelemetrySample__Output)[];
  'intervalMs': (number);
  'totalMemoryMib': (number);
}
