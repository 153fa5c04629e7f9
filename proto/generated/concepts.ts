import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ConceptsClient as _metarank_v1_ConceptsClient, ConceptsDefinition as _metarank_v1_ConceptsDefinition } from './metarank/v1/Concepts.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      ConceptCatalogueReply: MessageTypeDefinition
      ConceptCatalogueRequest: MessageTypeDefinition
      ConceptModel: MessageTypeDefinition
      ConceptPoolReply: MessageTypeDefinition
      ConceptPoolRequest: MessageTypeDefinition
      ConceptSlot: MessageTypeDefinition
      Concepts: SubtypeConstructor<typeof grpc.Client, _metarank_v1_ConceptsClient> & { service: _metarank_v1_ConceptsDefinition }
      CustomConcept: MessageTypeDefinition
      PoolImage: MessageTypeDefinition
      RunTcavReply: MessageTypeDefinition
      RunTcavRequest: MessageTypeDefinition
      TcavConceptResult: MessageTypeDefinition
      TcavEvent: MessageTypeDefinition
      TcavLayerScore: MessageTypeDefinition
      TcavProgress: MessageTypeDefinition
      TcavRandomBaseline: MessageTypeDefinition
    }
  }
}

