// Original file: proto/metarank/v1/kit.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BuildKitRequest as _metarank_v1_BuildKitRequest, BuildKitRequest__Output as _metarank_v1_BuildKitRequest__Output } from '../../metarank/v1/BuildKitRequest.ts';
import type { KitChunk as _metarank_v1_KitChunk, KitChunk__Output as _metarank_v1_KitChunk__Output } from '../../metarank/v1/KitChunk.ts';
import type { KitHeader as _metarank_v1_KitHeader, KitHeader__Output as _metarank_v1_KitHeader__Output } from '../../metarank/v1/KitHeader.ts';

export interface KitsClient extends grpc.Client {
  Build(argument: _metarank_v1_BuildKitRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_KitChunk__Output>;
  Build(argument: _metarank_v1_BuildKitRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_KitChunk__Output>;
  build(argument: _metarank_v1_BuildKitRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_KitChunk__Output>;
  build(argument: _metarank_v1_BuildKitRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_KitChunk__Output>;
  
  Describe(argument: _metarank_v1_BuildKitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_KitHeader__Output>): grpc.ClientUnaryCall;
  Describe(argument: _metarank_v1_BuildKitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_KitHeader__Output>): grpc.ClientUnaryCall;
  Describe(argument: _metarank_v1_BuildKitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_KitHeader__Output>): grpc.ClientUnaryCall;
  Describe(argument: _metarank_v1_BuildKitRequest, callback: grpc.requestCallback<_metarank_v1_KitHeader__Output>): grpc.ClientUnaryCall;
  describe(argument: _metarank_v1_BuildKitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_KitHeader__Output>): grpc.ClientUnaryCall;
  describe(argument: _metarank_v1_BuildKitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_KitHeader__Output>): grpc.ClientUnaryCall;
  describe(argument: _metarank_v1_BuildKitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_KitHeader__Output>): grpc.ClientUnaryCall;
  describe(argument: _metarank_v1_BuildKitRequest, callback: grpc.requestCallback<_metarank_v1_KitHeader__Output>): grpc.ClientUnaryCall;
  
}

export interface KitsHandlers extends grpc.UntypedServiceImplementation {
  Build: grpc.handleServerStreamingCall<_metarank_v1_BuildKitRequest__Output, _metarank_v1_KitChunk>;
  
  Describe: grpc.handleUnaryCall<_metarank_v1_BuildKitRequest__Output, _metarank_v1_KitHeader>;
  
}

export interface KitsDefinition extends grpc.ServiceDefinition {
  Build: MethodDefinition<_metarank_v1_BuildKitRequest, _metarank_v1_KitChunk, _metarank_v1_BuildKitRequest__Output, _metarank_v1_KitChunk__Output>
  Describe: MethodDefinition<_metarank_v1_BuildKitRequest, _metarank_v1_KitHeader, _metarank_v1_BuildKitRequest__Output, _metarank_v1_KitHeader__Output>
}
