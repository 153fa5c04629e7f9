// Original file: proto/metarank/v1/inference.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ExplainReply as _metarank_v1_ExplainReply, ExplainReply__Output as _metarank_v1_ExplainReply__Output } from '../../metarank/v1/ExplainReply.ts';
import type { ExplainRequest as _metarank_v1_ExplainRequest, ExplainRequest__Output as _metarank_v1_ExplainRequest__Output } from '../../metarank/v1/ExplainRequest.ts';
import type { ListAlgorithmsReply as _metarank_v1_ListAlgorithmsReply, ListAlgorithmsReply__Output as _metarank_v1_ListAlgorithmsReply__Output } from '../../metarank/v1/ListAlgorithmsReply.ts';
import type { ListAlgorithmsRequest as _metarank_v1_ListAlgorithmsRequest, ListAlgorithmsRequest__Output as _metarank_v1_ListAlgorithmsRequest__Output } from '../../metarank/v1/ListAlgorithmsRequest.ts';
import type { ListModelsReply as _metarank_v1_ListModelsReply, ListModelsReply__Output as _metarank_v1_ListModelsReply__Output } from '../../metarank/v1/ListModelsReply.ts';
import type { ListModelsRequest as _metarank_v1_ListModelsRequest, ListModelsRequest__Output as _metarank_v1_ListModelsRequest__Output } from '../../metarank/v1/ListModelsRequest.ts';
import type { PredictReply as _metarank_v1_PredictReply, PredictReply__Output as _metarank_v1_PredictReply__Output } from '../../metarank/v1/PredictReply.ts';
import type { PredictRequest as _metarank_v1_PredictRequest, PredictRequest__Output as _metarank_v1_PredictRequest__Output } from '../../metarank/v1/PredictRequest.ts';
import type { ReportGpuReply as _metarank_v1_ReportGpuReply, ReportGpuReply__Output as _metarank_v1_ReportGpuReply__Output } from '../../metarank/v1/ReportGpuReply.ts';
import type { ReportGpuRequest as _metarank_v1_ReportGpuRequest, ReportGpuRequest__Output as _metarank_v1_ReportGpuRequest__Output } from '../../metarank/v1/ReportGpuRequest.ts';

export interface InferenceClient extends grpc.Client {
  Explain(argument: _metarank_v1_ExplainRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_ExplainRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_ExplainRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_ExplainRequest, callback: grpc.requestCallback<_metarank_v1_ExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_ExplainRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_ExplainRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_ExplainRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_ExplainRequest, callback: grpc.requestCallback<_metarank_v1_ExplainReply__Output>): grpc.ClientUnaryCall;
  
  ListAlgorithms(argument: _metarank_v1_ListAlgorithmsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListAlgorithmsReply__Output>): grpc.ClientUnaryCall;
  ListAlgorithms(argument: _metarank_v1_ListAlgorithmsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListAlgorithmsReply__Output>): grpc.ClientUnaryCall;
  ListAlgorithms(argument: _metarank_v1_ListAlgorithmsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListAlgorithmsReply__Output>): grpc.ClientUnaryCall;
  ListAlgorithms(argument: _metarank_v1_ListAlgorithmsRequest, callback: grpc.requestCallback<_metarank_v1_ListAlgorithmsReply__Output>): grpc.ClientUnaryCall;
  listAlgorithms(argument: _metarank_v1_ListAlgorithmsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListAlgorithmsReply__Output>): grpc.ClientUnaryCall;
  listAlgorithms(argument: _metarank_v1_ListAlgorithmsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListAlgorithmsReply__Output>): grpc.ClientUnaryCall;
  listAlgorithms(argument: _metarank_v1_ListAlgorithmsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListAlgorithmsReply__Output>): grpc.ClientUnaryCall;
  listAlgorithms(argument: _metarank_v1_ListAlgorithmsRequest, callback: grpc.requestCallback<_metarank_v1_ListAlgorithmsReply__Output>): grpc.ClientUnaryCall;
  
  ListModels(argument: _metarank_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListModelsReply__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _metarank_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListModelsReply__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _metarank_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListModelsReply__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _metarank_v1_ListModelsRequest, callback: grpc.requestCallback<_metarank_v1_ListModelsReply__Output>): grpc.ClientUnaryCall;
  listModels(argument: _metarank_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListModelsReply__Output>): grpc.ClientUnaryCall;
  listModels(argument: _metarank_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListModelsReply__Output>): grpc.ClientUnaryCall;
  listModels(argument: _metarank_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListModelsReply__Output>): grpc.ClientUnaryCall;
  listModels(argument: _metarank_v1_ListModelsRequest, callback: grpc.requestCallback<_metarank_v1_ListModelsReply__Output>): grpc.ClientUnaryCall;
  
  Predict(argument: _metarank_v1_PredictRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_PredictReply__Output>): grpc.ClientUnaryCall;
  Predict(argument: _metarank_v1_PredictRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_PredictReply__Output>): grpc.ClientUnaryCall;
  Predict(argument: _metarank_v1_PredictRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_PredictReply__Output>): grpc.ClientUnaryCall;
  Predict(argument: _metarank_v1_PredictRequest, callback: grpc.requestCallback<_metarank_v1_PredictReply__Output>): grpc.ClientUnaryCall;
  predict(argument: _metarank_v1_PredictRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_PredictReply__Output>): grpc.ClientUnaryCall;
  predict(argument: _metarank_v1_PredictRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_PredictReply__Output>): grpc.ClientUnaryCall;
  predict(argument: _metarank_v1_PredictRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_PredictReply__Output>): grpc.ClientUnaryCall;
  predict(argument: _metarank_v1_PredictRequest, callback: grpc.requestCallback<_metarank_v1_PredictReply__Output>): grpc.ClientUnaryCall;
  
  ReportGpu(argument: _metarank_v1_ReportGpuRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ReportGpuReply__Output>): grpc.ClientUnaryCall;
  ReportGpu(argument: _metarank_v1_ReportGpuRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ReportGpuReply__Output>): grpc.ClientUnaryCall;
  ReportGpu(argument: _metarank_v1_ReportGpuRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ReportGpuReply__Output>): grpc.ClientUnaryCall;
  ReportGpu(argument: _metarank_v1_ReportGpuRequest, callback: grpc.requestCallback<_metarank_v1_ReportGpuReply__Output>): grpc.ClientUnaryCall;
  reportGpu(argument: _metarank_v1_ReportGpuRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ReportGpuReply__Output>): grpc.ClientUnaryCall;
  reportGpu(argument: _metarank_v1_ReportGpuRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ReportGpuReply__Output>): grpc.ClientUnaryCall;
  reportGpu(argument: _metarank_v1_ReportGpuRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ReportGpuReply__Output>): grpc.ClientUnaryCall;
  reportGpu(argument: _metarank_v1_ReportGpuRequest, callback: grpc.requestCallback<_metarank_v1_ReportGpuReply__Output>): grpc.ClientUnaryCall;
  
}

export interface InferenceHandlers extends grpc.UntypedServiceImplementation {
  Explain: grpc.handleUnaryCall<_metarank_v1_ExplainRequest__Output, _metarank_v1_ExplainReply>;
  
  ListAlgorithms: grpc.handleUnaryCall<_metarank_v1_ListAlgorithmsRequest__Output, _metarank_v1_ListAlgorithmsReply>;
  
  ListModels: grpc.handleUnaryCall<_metarank_v1_ListModelsRequest__Output, _metarank_v1_ListModelsReply>;
  
  Predict: grpc.handleUnaryCall<_metarank_v1_PredictRequest__Output, _metarank_v1_PredictReply>;
  
  ReportGpu: grpc.handleUnaryCall<_metarank_v1_ReportGpuRequest__Output, _metarank_v1_ReportGpuReply>;
  
}

export interface InferenceDefinition extends grpc.ServiceDefinition {
  Explain: MethodDefinition<_metarank_v1_ExplainRequest, _metarank_v1_ExplainReply, _metarank_v1_ExplainRequest__Output, _metarank_v1_ExplainReply__Output>
  ListAlgorithms: MethodDefinition<_metarank_v1_ListAlgorithmsRequest, _metarank_v1_ListAlgorithmsReply, _metarank_v1_ListAlgorithmsRequest__Output, _metarank_v1_ListAlgorithmsReply__Output>
  ListModels: MethodDefinition<_metarank_v1_ListModelsRequest, _metarank_v1_ListModelsReply, _metarank_v1_ListModelsRequest__Output, _metarank_v1_ListModelsReply__Output>
  Predict: MethodDefinition<_metarank_v1_PredictRequest, _metarank_v1_PredictReply, _metarank_v1_PredictRequest__Output, _metarank_v1_PredictReply__Output>
  ReportGpu: MethodDefinition<_metarank_v1_ReportGpuRequest, _metarank_v1_ReportGpuReply, _metarank_v1_ReportGpuRequest__Output, _metarank_v1_ReportGpuReply__Output>
}
