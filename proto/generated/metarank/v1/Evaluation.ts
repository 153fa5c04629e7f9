// Original file: proto/metarank/v1/evaluation.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { EvaluationEvent as _metarank_v1_EvaluationEvent, EvaluationEvent__Output as _metarank_v1_EvaluationEvent__Output } from '../../metarank/v1/EvaluationEvent.ts';
import type { ListEvaluationSuitesReply as _metarank_v1_ListEvaluationSuitesReply, ListEvaluationSuitesReply__Output as _metarank_v1_ListEvaluationSuitesReply__Output } from '../../metarank/v1/ListEvaluationSuitesReply.ts';
import type { ListEvaluationSuitesRequest as _metarank_v1_ListEvaluationSuitesRequest, ListEvaluationSuitesRequest__Output as _metarank_v1_ListEvaluationSuitesRequest__Output } from '../../metarank/v1/ListEvaluationSuitesRequest.ts';
import type { RunEvaluationRequest as _metarank_v1_RunEvaluationRequest, RunEvaluationRequest__Output as _metarank_v1_RunEvaluationRequest__Output } from '../../metarank/v1/RunEvaluationRequest.ts';
import type { RunMapsRequest as _metarank_v1_RunMapsRequest, RunMapsRequest__Output as _metarank_v1_RunMapsRequest__Output } from '../../metarank/v1/RunMapsRequest.ts';

export interface EvaluationClient extends grpc.Client {
  ListSuites(argument: _metarank_v1_ListEvaluationSuitesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListEvaluationSuitesReply__Output>): grpc.ClientUnaryCall;
  ListSuites(argument: _metarank_v1_ListEvaluationSuitesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListEvaluationSuitesReply__Output>): grpc.ClientUnaryCall;
  ListSuites(argument: _metarank_v1_ListEvaluationSuitesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListEvaluationSuitesReply__Output>): grpc.ClientUnaryCall;
  ListSuites(argument: _metarank_v1_ListEvaluationSuitesRequest, callback: grpc.requestCallback<_metarank_v1_ListEvaluationSuitesReply__Output>): grpc.ClientUnaryCall;
  listSuites(argument: _metarank_v1_ListEvaluationSuitesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListEvaluationSuitesReply__Output>): grpc.ClientUnaryCall;
  listSuites(argument: _metarank_v1_ListEvaluationSuitesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListEvaluationSuitesReply__Output>): grpc.ClientUnaryCall;
  listSuites(argument: _metarank_v1_ListEvaluationSuitesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListEvaluationSuitesReply__Output>): grpc.ClientUnaryCall;
  listSuites(argument: _metarank_v1_ListEvaluationSuitesRequest, callback: grpc.requestCallback<_metarank_v1_ListEvaluationSuitesReply__Output>): grpc.ClientUnaryCall;
  
  Run(argument: _metarank_v1_RunEvaluationRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_EvaluationEvent__Output>;
  Run(argument: _metarank_v1_RunEvaluationRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_EvaluationEvent__Output>;
  run(argument: _metarank_v1_RunEvaluationRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_EvaluationEvent__Output>;
  run(argument: _metarank_v1_RunEvaluationRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_EvaluationEvent__Output>;
  
  RunMaps(argument: _metarank_v1_RunMapsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_EvaluationEvent__Output>;
  RunMaps(argument: _metarank_v1_RunMapsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_EvaluationEvent__Output>;
  runMaps(argument: _metarank_v1_RunMapsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_EvaluationEvent__Output>;
  runMaps(argument: _metarank_v1_RunMapsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_EvaluationEvent__Output>;
  
}

export interface EvaluationHandlers extends grpc.UntypedServiceImplementation {
  ListSuites: grpc.handleUnaryCall<_metarank_v1_ListEvaluationSuitesRequest__Output, _metarank_v1_ListEvaluationSuitesReply>;
  
  Run: grpc.handleServerStreamingCall<_metarank_v1_RunEvaluationRequest__Output, _metarank_v1_EvaluationEvent>;
  
  RunMaps: grpc.handleServerStreamingCall<_metarank_v1_RunMapsRequest__Output, _metarank_v1_EvaluationEvent>;
  
}

export interface EvaluationDefinition extends grpc.ServiceDefinition {
  ListSuites: MethodDefinition<_metarank_v1_ListEvaluationSuitesRequest, _metarank_v1_ListEvaluationSuitesReply, _metarank_v1_ListEvaluationSuitesRequest__Output, _metarank_v1_ListEvaluationSuitesReply__Output>
  Run: MethodDefinition<_metarank_v1_RunEvaluationRequest, _metarank_v1_EvaluationEvent, _metarank_v1_RunEvaluationRequest__Output, _metarank_v1_EvaluationEvent__Output>
  RunMaps: MethodDefinition<_metarank_v1_RunMapsRequest, _metarank_v1_EvaluationEvent, _metarank_v1_RunMapsRequest__Output, _metarank_v1_EvaluationEvent__Output>
}
