import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { QuestionAnsweringClient as _metarank_v1_QuestionAnsweringClient, QuestionAnsweringDefinition as _metarank_v1_QuestionAnsweringDefinition } from './metarank/v1/QuestionAnswering.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      AnswerQuestionReply: MessageTypeDefinition
      AnswerQuestionRequest: MessageTypeDefinition
      QuestionAnswering: SubtypeConstructor<typeof grpc.Client, _metarank_v1_QuestionAnsweringClient> & { service: _metarank_v1_QuestionAnsweringDefinition }
      VqaAnswerScore: MessageTypeDefinition
      VqaModel: MessageTypeDefinition
      VqaModelsReply: MessageTypeDefinition
      VqaModelsRequest: MessageTypeDefinition
      VqaSynonym: MessageTypeDefinition
      VqaTypeAccuracy: MessageTypeDefinition
    }
  }
}

