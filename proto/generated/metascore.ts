import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { MetascoreClient as _metarank_v1_MetascoreClient, MetascoreDefinition as _metarank_v1_MetascoreDefinition } from './metarank/v1/Metascore.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      FileProblem: MessageTypeDefinition
      InsertCandidateRequest: MessageTypeDefinition
      InsertCandidateResponse: MessageTypeDefinition
      Metascore: SubtypeConstructor<typeof grpc.Client, _metarank_v1_MetascoreClient> & { service: _metarank_v1_MetascoreDefinition }
      MethodScores: MessageTypeDefinition
      RankBoardRequest: MessageTypeDefinition
      RankBoardResponse: MessageTypeDefinition
      RankedMethod: MessageTypeDefinition
      ResultFile: MessageTypeDefinition
      StoredMethod: MessageTypeDefinition
      TaskScore: MessageTypeDefinition
      ValidateResultFilesRequest: MessageTypeDefinition
      ValidateResultFilesResponse: MessageTypeDefinition
    }
  }
}

