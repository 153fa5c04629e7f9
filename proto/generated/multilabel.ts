import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { InferenceClient as _metarank_v1_InferenceClient, InferenceDefinition as _metarank_v1_InferenceDefinition } from './metarank/v1/Inference.ts';
import type { MultiLabelClient as _metarank_v1_MultiLabelClient, MultiLabelDefinition as _metarank_v1_MultiLabelDefinition } from './metarank/v1/MultiLabel.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      AlgorithmInfo: MessageTypeDefinition
      AlgorithmParam: MessageTypeDefinition
      ExplainReply: MessageTypeDefinition
      ExplainRequest: MessageTypeDefinition
      Inference: SubtypeConstructor<typeof grpc.Client, _metarank_v1_InferenceClient> & { service: _metarank_v1_InferenceDefinition }
      ListAlgorithmsReply: MessageTypeDefinition
      ListAlgorithmsRequest: MessageTypeDefinition
      ListModelsReply: MessageTypeDefinition
      ListModelsRequest: MessageTypeDefinition
      ListMultiLabelModelsReply: MessageTypeDefinition
      ListMultiLabelModelsRequest: MessageTypeDefinition
      ModelInfo: MessageTypeDefinition
      MultiLabel: SubtypeConstructor<typeof grpc.Client, _metarank_v1_MultiLabelClient> & { service: _metarank_v1_MultiLabelDefinition }
      MultiLabelClassifyReply: MessageTypeDefinition
      MultiLabelClassifyRequest: MessageTypeDefinition
      MultiLabelExplainReply: MessageTypeDefinition
      MultiLabelExplainRequest: MessageTypeDefinition
      MultiLabelModelInfo: MessageTypeDefinition
      PredictReply: MessageTypeDefinition
      PredictRequest: MessageTypeDefinition
      RankedLabel: MessageTypeDefinition
      ReportGpuReply: MessageTypeDefinition
      ReportGpuRequest: MessageTypeDefinition
      Tensor: MessageTypeDefinition
    }
  }
}

