import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { SeBoWClient as _metarank_v1_SeBoWClient, SeBoWDefinition as _metarank_v1_SeBoWDefinition } from './metarank/v1/SeBoW.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      SeBoW: SubtypeConstructor<typeof grpc.Client, _metarank_v1_SeBoWClient> & { service: _metarank_v1_SeBoWDefinition }
      SebowDecision: MessageTypeDefinition
      SebowExplainReply: MessageTypeDefinition
      SebowExplainRequest: MessageTypeDefinition
      SebowListReply: MessageTypeDefinition
      SebowListRequest: MessageTypeDefinition
      SebowModelInfo: MessageTypeDefinition
      SebowPoolImage: MessageTypeDefinition
      SebowPoolReply: MessageTypeDefinition
      SebowPoolRequest: MessageTypeDefinition
    }
  }
}

