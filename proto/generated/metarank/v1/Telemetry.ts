// Original file: proto/metarank/v1/telemetry.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListGpuProcessesRequest as _metarank_v1_ListGpuProcessesRequest, ListGpuProcessesRequest__Output as _metarank_v1_ListGpuProcessesRequest__Output } from '../../metarank/v1/ListGpuProcessesRequest.ts';
import type { ListGpuProcessesResponse as _metarank_v1_ListGpuProcessesResponse, ListGpuProcessesResponse__Output as _metarank_v1_ListGpuProcessesResponse__Output } from '../../metarank/v1/ListGpuProcessesResponse.ts';
import type { TelemetrySample as _metarank_v1_TelemetrySample, TelemetrySample__Output as _metarank_v1_TelemetrySample__Output } from '../../metarank/v1/TelemetrySample.ts';
import type { TelemetrySnapshot as _metarank_v1_TelemetrySnapshot, TelemetrySnapshot__Output as _metarank_v1_TelemetrySnapshot__Output } from '../../metarank/v1/TelemetrySnapshot.ts';
import type { TelemetrySnapshotRequest as _metarank_v1_TelemetrySnapshotRequest, TelemetrySnapshotRequest__Output as _metarank_v1_TelemetrySnapshotRequest__Output } from '../../metarank/v1/TelemetrySnapshotRequest.ts';
import type { TelemetryStreamRequest as _metarank_v1_TelemetryStreamRequest, TelemetryStreamRequest__Output as _metarank_v1_TelemetryStreamRequest__Output } from '../../metarank/v1/TelemetryStreamRequest.ts';

export interface TelemetryClient extends grpc.Client {
  ListProcesses(argument: _metarank_v1_ListGpuProcessesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListGpuProcessesResponse__Output>): grpc.ClientUnaryCall;
  ListProcesses(argument: _metarank_v1_ListGpuProcessesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListGpuProcessesResponse__Output>): grpc.ClientUnaryCall;
  ListProcesses(argument: _metarank_v1_ListGpuProcessesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListGpuProcessesResponse__Output>): grpc.ClientUnaryCall;
  ListProcesses(argument: _metarank_v1_ListGpuProcessesRequest, callback: grpc.requestCallback<_metarank_v1_ListGpuProcessesResponse__Output>): grpc.ClientUnaryCall;
  listProcesses(argument: _metarank_v1_ListGpuProcessesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListGpuProcessesResponse__Output>): grpc.ClientUnaryCall;
  listProcesses(argument: _metarank_v1_ListGpuProcessesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListGpuProcessesResponse__Output>): grpc.ClientUnaryCall;
  listProcesses(argument: _metarank_v1_ListGpuProcessesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListGpuProcessesResponse__Output>): grpc.ClientUnaryCall;
  listProcesses(argument: _metarank_v1_ListGpuProcessesRequest, callback: grpc.requestCallback<_metarank_v1_ListGpuProcessesResponse__Output>): grpc.ClientUnaryCall;
  
  Snapshot(argument: _metarank_v1_TelemetrySnapshotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TelemetrySnapshot__Output>): grpc.ClientUnaryCall;
  Snapshot(argument: _metarank_v1_TelemetrySnapshotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TelemetrySnapshot__Output>): grpc.ClientUnaryCall;
  Snapshot(argument: _metarank_v1_TelemetrySnapshotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TelemetrySnapshot__Output>): grpc.ClientUnaryCall;
  Snapshot(argument: _metarank_v1_TelemetrySnapshotRequest, callback: grpc.requestCallback<_metarank_v1_TelemetrySnapshot__Output>): grpc.ClientUnaryCall;
  snapshot(argument: _metarank_v1_TelemetrySnapshotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TelemetrySnapshot__Output>): grpc.ClientUnaryCall;
  snapshot(argument: _metarank_v1_TelemetrySnapshotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TelemetrySnapshot__Output>): grpc.ClientUnaryCall;
  snapshot(argument: _metarank_v1_TelemetrySnapshotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TelemetrySnapshot__Output>): grpc.ClientUnaryCall;
  snapshot(argument: _metarank_v1_TelemetrySnapshotRequest, callback: grpc.requestCallback<_metarank_v1_TelemetrySnapshot__Output>): grpc.ClientUnaryCall;
  
  Stream(argument: _metarank_v1_TelemetryStreamRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TelemetrySample__Output>;
  Stream(argument: _metarank_v1_TelemetryStreamRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TelemetrySample__Output>;
  stream(argument: _metarank_v1_TelemetryStreamRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TelemetrySample__Output>;
  stream(argument: _metarank_v1_TelemetryStreamRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TelemetrySample__Output>;
  
}

export interface TelemetryHandlers extends grpc.UntypedServiceImplementation {
  ListProcesses: grpc.handleUnaryCall<_metarank_v1_ListGpuProcessesRequest__Output, _metarank_v1_ListGpuProcessesResponse>;
  
  Snapshot: grpc.handleUnaryCall<_metarank_v1_TelemetrySnapshotRequest__Output, _metarank_v1_TelemetrySnapshot>;
  
  Stream: grpc.handleServerStreamingCall<_metarank_v1_TelemetryStreamRequest__Output, _metarank_v1_TelemetrySample>;
  
}

export interface TelemetryDefinition extends grpc.ServiceDefinition {
  ListProcesses: MethodDefinition<_metarank_v1_ListGpuProcessesRequest, _metarank_v1_ListGpuProcessesResponse, _metarank_v1_ListGpuProcessesRequest__Output, _metarank_v1_ListGpuProcessesResponse__Output>
  Snapshot: MethodDefinition<_metarank_v1_TelemetrySnapshotRequest, _metarank_v1_TelemetrySnapshot, _metarank_v1_TelemetrySnapshotRequest__Output, _metarank_v1_TelemetrySnapshot__Output>
  Stream: MethodDefinition<_metarank_v1_TelemetryStreamRequest, _metarank_v1_TelemetrySample, _metarank_v1_TelemetryStreamRequest__Output, _metarank_v1_TelemetrySample__Output>
}
