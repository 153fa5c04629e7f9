// Original file: proto/metarank/v1/sebow.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { SebowExplainReply as _metarank_v1_SebowExplainReply, SebowExplainReply__Output as _metarank_v1_SebowExplainReply__Output } from '../../metarank/v1/SebowExplainReply.ts';
import type { SebowExplainRequest as _metarank_v1_SebowExplainRequest, SebowExplainRequest__Output as _metarank_v1_SebowExplainRequest__Output } from '../../metarank/v1/SebowExplainRequest.ts';
import type { SebowListReply as _metarank_v1_SebowListReply, SebowListReply__Output as _metarank_v1_SebowListReply__Output } from '../../metarank/v1/SebowListReply.ts';
import type { SebowListRequest as _metarank_v1_SebowListRequest, SebowListRequest__Output as _metarank_v1_SebowListRequest__Output } from '../../metarank/v1/SebowListRequest.ts';
import type { SebowPoolReply as _metarank_v1_SebowPoolReply, SebowPoolReply__Output as _metarank_v1_SebowPoolReply__Output } from '../../metarank/v1/SebowPoolReply.ts';
import type { SebowPoolRequest as _metarank_v1_SebowPoolRequest, SebowPoolRequest__Output as _metarank_v1_SebowPoolRequest__Output } from '../../metarank/v1/SebowPoolRequest.ts';

export interface SeBoWClient extends grpc.Client {
  Explain(argument: _metarank_v1_SebowExplainRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_SebowExplainRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SebowExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_SebowExplainRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_SebowExplainRequest, callback: grpc.requestCallback<_metarank_v1_SebowExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_SebowExplainRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_SebowExplainRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SebowExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_SebowExplainRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_SebowExplainRequest, callback: grpc.requestCallback<_metarank_v1_SebowExplainReply__Output>): grpc.ClientUnaryCall;
  
  ListModels(argument: _metarank_v1_SebowListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowListReply__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _metarank_v1_SebowListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SebowListReply__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _metarank_v1_SebowListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowListReply__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _metarank_v1_SebowListRequest, callback: grpc.requestCallback<_metarank_v1_SebowListReply__Output>): grpc.ClientUnaryCall;
  listModels(argument: _metarank_v1_SebowListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowListReply__Output>): grpc.ClientUnaryCall;
  listModels(argument: _metarank_v1_SebowListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SebowListReply__Output>): grpc.ClientUnaryCall;
  listModels(argument: _metarank_v1_SebowListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowListReply__Output>): grpc.ClientUnaryCall;
  listModels(argument: _metarank_v1_SebowListRequest, callback: grpc.requestCallback<_metarank_v1_SebowListReply__Output>): grpc.ClientUnaryCall;
  
  Pool(argument: _metarank_v1_SebowPoolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowPoolReply__Output>): grpc.ClientUnaryCall;
  Pool(argument: _metarank_v1_SebowPoolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SebowPoolReply__Output>): grpc.ClientUnaryCall;
  Pool(argument: _metarank_v1_SebowPoolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowPoolReply__Output>): grpc.ClientUnaryCall;
  Pool(argument: _metarank_v1_SebowPoolRequest, callback: grpc.requestCallback<_metarank_v1_SebowPoolReply__Output>): grpc.ClientUnaryCall;
  pool(argument: _metarank_v1_SebowPoolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowPoolReply__Output>): grpc.ClientUnaryCall;
  pool(argument: _metarank_v1_SebowPoolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SebowPoolReply__Output>): grpc.ClientUnaryCall;
  pool(argument: _metarank_v1_SebowPoolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SebowPoolReply__Output>): grpc.ClientUnaryCall;
  pool(argument: _metarank_v1_SebowPoolRequest, callback: grpc.requestCallback<_metarank_v1_SebowPoolReply__Output>): grpc.ClientUnaryCall;
  
}

export interface SeBoWHandlers extends grpc.UntypedServiceImplementation {
  Explain: grpc.handleUnaryCall<_metarank_v1_SebowExplainRequest__Output, _metarank_v1_SebowExplainReply>;
  
  ListModels: grpc.handleUnaryCall<_metarank_v1_SebowListRequest__Output, _metarank_v1_SebowListReply>;
  
  Pool: grpc.handleUnaryCall<_metarank_v1_SebowPoolRequest__Output, _metarank_v1_SebowPoolReply>;
  
}

export interface SeBoWDefinition extends grpc.ServiceDefinition {
  Explain: MethodDefinition<_metarank_v1_SebowExplainRequest, _metarank_v1_SebowExplainReply, _metarank_v1_SebowExplainRequest__Output, _metarank_v1_SebowExplainReply__Output>
  ListModels: MethodDefinition<_metarank_v1_SebowListRequest, _metarank_v1_SebowListReply, _metarank_v1_SebowListRequest__Output, _metarank_v1_SebowListReply__Output>
  Pool: MethodDefinition<_metarank_v1_SebowPoolRequest, _metarank_v1_SebowPoolReply, _metarank_v1_SebowPoolRequest__Output, _metarank_v1_SebowPoolReply__Output>
}
