// Original file: proto/metarank/v1/multilabel.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListMultiLabelModelsReply as _metarank_v1_ListMultiLabelModelsReply, ListMultiLabelModelsReply__Output as _metarank_v1_ListMultiLabelModelsReply__Output } from '../../metarank/v1/ListMultiLabelModelsReply.ts';
import type { ListMultiLabelModelsRequest as _metarank_v1_ListMultiLabelModelsRequest, ListMultiLabelModelsRequest__Output as _metarank_v1_ListMultiLabelModelsRequest__Output } from '../../metarank/v1/ListMultiLabelModelsRequest.ts';
import type { MultiLabelClassifyReply as _metarank_v1_MultiLabelClassifyReply, MultiLabelClassifyReply__Output as _metarank_v1_MultiLabelClassifyReply__Output } from '../../metarank/v1/MultiLabelClassifyReply.ts';
import type { MultiLabelClassifyRequest as _metarank_v1_MultiLabelClassifyRequest, MultiLabelClassifyRequest__Output as _metarank_v1_MultiLabelClassifyRequest__Output } from '../../metarank/v1/MultiLabelClassifyRequest.ts';
import type { MultiLabelExplainReply as _metarank_v1_MultiLabelExplainReply, MultiLabelExplainReply__Output as _metarank_v1_MultiLabelExplainReply__Output } from '../../metarank/v1/MultiLabelExplainReply.ts';
import type { MultiLabelExplainRequest as _metarank_v1_MultiLabelExplainRequest, MultiLabelExplainRequest__Output as _metarank_v1_MultiLabelExplainRequest__Output } from '../../metarank/v1/MultiLabelExplainRequest.ts';

export interface MultiLabelClient extends grpc.Client {
  Classify(argument: _metarank_v1_MultiLabelClassifyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_MultiLabelClassifyReply__Output>): grpc.ClientUnaryCall;
  Classify(argument: _metarank_v1_MultiLabelClassifyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_MultiLabelClassifyReply__Output>): grpc.ClientUnaryCall;
  Classify(argument: _metarank_v1_MultiLabelClassifyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_MultiLabelClassifyReply__Output>): grpc.ClientUnaryCall;
  Classify(argument: _metarank_v1_MultiLabelClassifyRequest, callback: grpc.requestCallback<_metarank_v1_MultiLabelClassifyReply__Output>): grpc.ClientUnaryCall;
  classify(argument: _metarank_v1_MultiLabelClassifyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_MultiLabelClassifyReply__Output>): grpc.ClientUnaryCall;
  classify(argument: _metarank_v1_MultiLabelClassifyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_MultiLabelClassifyReply__Output>): grpc.ClientUnaryCall;
  classify(argument: _metarank_v1_MultiLabelClassifyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_MultiLabelClassifyReply__Output>): grpc.ClientUnaryCall;
  classify(argument: _metarank_v1_MultiLabelClassifyRequest, callback: grpc.requestCallback<_metarank_v1_MultiLabelClassifyReply__Output>): grpc.ClientUnaryCall;
  
  Explain(argument: _metarank_v1_MultiLabelExplainRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_MultiLabelExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_MultiLabelExplainRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_MultiLabelExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_MultiLabelExplainRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_MultiLabelExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_MultiLabelExplainRequest, callback: grpc.requestCallback<_metarank_v1_MultiLabelExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_MultiLabelExplainRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_MultiLabelExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_MultiLabelExplainRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_MultiLabelExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_MultiLabelExplainRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_MultiLabelExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_MultiLabelExplainRequest, callback: grpc.requestCallback<_metarank_v1_MultiLabelExplainReply__Output>): grpc.ClientUnaryCall;
  
  ListMultiLabelModels(argument: _metarank_v1_ListMultiLabelModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListMultiLabelModelsReply__Output>): grpc.ClientUnaryCall;
  ListMultiLabelModels(argument: _metarank_v1_ListMultiLabelModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListMultiLabelModelsReply__Output>): grpc.ClientUnaryCall;
  ListMultiLabelModels(argument: _metarank_v1_ListMultiLabelModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListMultiLabelModelsReply__Output>): grpc.ClientUnaryCall;
  ListMultiLabelModels(argument: _metarank_v1_ListMultiLabelModelsRequest, callback: grpc.requestCallback<_metarank_v1_ListMultiLabelModelsReply__Output>): grpc.ClientUnaryCall;
  listMultiLabelModels(argument: _metarank_v1_ListMultiLabelModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListMultiLabelModelsReply__Output>): grpc.ClientUnaryCall;
  listMultiLabelModels(argument: _metarank_v1_ListMultiLabelModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListMultiLabelModelsReply__Output>): grpc.ClientUnaryCall;
  listMultiLabelModels(argument: _metarank_v1_ListMultiLabelModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListMultiLabelModelsReply__Output>): grpc.ClientUnaryCall;
  listMultiLabelModels(argument: _metarank_v1_ListMultiLabelModelsRequest, callback: grpc.requestCallback<_metarank_v1_ListMultiLabelModelsReply__Output>): grpc.ClientUnaryCall;
  
}

export interface MultiLabelHandlers extends grpc.UntypedServiceImplementation {
  Classify: grpc.handleUnaryCall<_metarank_v1_MultiLabelClassifyRequest__Output, _metarank_v1_MultiLabelClassifyReply>;
  
  Explain: grpc.handleUnaryCall<_metarank_v1_MultiLabelExplainRequest__Output, _metarank_v1_MultiLabelExplainReply>;
  
  ListMultiLabelModels: grpc.handleUnaryCall<_metarank_v1_ListMultiLabelModelsRequest__Output, _metarank_v1_ListMultiLabelModelsReply>;
  
}

export interface MultiLabelDefinition extends grpc.ServiceDefinition {
  Classify: MethodDefinition<_metarank_v1_MultiLabelClassifyRequest, _metarank_v1_MultiLabelClassifyReply, _metarank_v1_MultiLabelClassifyRequest__Output, _metarank_v1_MultiLabelClassifyReply__Output>
  Explain: MethodDefinition<_metarank_v1_MultiLabelExplainRequest, _metarank_v1_MultiLabelExplainReply, _metarank_v1_MultiLabelExplainRequest__Output, _metarank_v1_MultiLabelExplainReply__Output>
  ListMultiLabelModels: MethodDefinition<_metarank_v1_ListMultiLabelModelsRequest, _metarank_v1_ListMultiLabelModelsReply, _metarank_v1_ListMultiLabelModelsRequest__Output, _metarank_v1_ListMultiLabelModelsReply__Output>
}
