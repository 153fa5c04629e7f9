import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { EvaluationClient as _metarank_v1_EvaluationClient, EvaluationDefinition as _metarank_v1_EvaluationDefinition } from './metarank/v1/Evaluation.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      Evaluation: SubtypeConstructor<typeof grpc.Client, _metarank_v1_EvaluationClient> & { service: _metarank_v1_EvaluationDefinition }
      EvaluationEvent: MessageTypeDefinition
      EvaluationMethod: MessageTypeDefinition
      EvaluationProgress: MessageTypeDefinition
      EvaluationResult: MessageTypeDefinition
      EvaluationSuite: MessageTypeDefinition
      EvaluationTask: MessageTypeDefinition
      ListEvaluationSuitesReply: MessageTypeDefinition
      ListEvaluationSuitesRequest: MessageTypeDefinition
      RunEvaluationRequest: MessageTypeDefinition
      RunMapsRequest: MessageTypeDefinition
      TaskLocalisation: MessageTypeDefinition
      TaskMaps: MessageTypeDefinition
    }
  }
}

