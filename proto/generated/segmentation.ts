import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { InferenceClient as _metarank_v1_InferenceClient, InferenceDefinition as _metarank_v1_InferenceDefinition } from './metarank/v1/Inference.ts';
import type { SegmentationClient as _metarank_v1_SegmentationClient, SegmentationDefinition as _metarank_v1_SegmentationDefinition } from './metarank/v1/Segmentation.ts';

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
      ListSegmentersReply: MessageTypeDefinition
      ListSegmentersRequest: MessageTypeDefinition
      ModelInfo: MessageTypeDefinition
      PredictReply: MessageTypeDefinition
      PredictRequest: MessageTypeDefinition
      ReportGpuReply: MessageTypeDefinition
      ReportGpuRequest: MessageTypeDefinition
      SegExplainReply: MessageTypeDefinition
      SegExplainRequest: MessageTypeDefinition
      SegmentAttribution: MessageTypeDefinition
      SegmentClass: MessageTypeDefinition
      SegmentReply: MessageTypeDefinition
      SegmentRequest: MessageTypeDefinition
      Segmentation: SubtypeConstructor<typeof grpc.Client, _metarank_v1_SegmentationClient> & { service: _metarank_v1_SegmentationDefinition }
      SegmenterInfo: MessageTypeDefinition
      Tensor: MessageTypeDefinition
    }
  }
}

