import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { TelemetryClient as _metarank_v1_TelemetryClient, TelemetryDefinition as _metarank_v1_TelemetryDefinition } from './metarank/v1/Telemetry.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      GpuProcess: MessageTypeDefinition
      GpuStats: MessageTypeDefinition
      ListGpuProcessesRequest: MessageTypeDefinition
      ListGpuProcessesResponse: MessageTypeDefinition
      Telemetry: SubtypeConstructor<typeof grpc.Client, _metarank_v1_TelemetryClient> & { service: _metarank_v1_TelemetryDefinition }
      TelemetrySample: MessageTypeDefinition
      TelemetrySnapshot: MessageTypeDefinition
      TelemetrySnapshotRequest: MessageTypeDefinition
      TelemetryStreamRequest: MessageTypeDefinition
    }
  }
}

