import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { TreeClient as _metarank_v1_TreeClient, TreeDefinition as _metarank_v1_TreeDefinition } from './metarank/v1/Tree.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      AdjustTreeRequest: MessageTypeDefinition
      Caller: MessageTypeDefinition
      Candidate: MessageTypeDefinition
      CandidatesReply: MessageTypeDefinition
      CandidatesRequest: MessageTypeDefinition
      ExportTreeRequest: MessageTypeDefinition
      FileChunk: MessageTypeDefinition
      GetTreeRequest: MessageTypeDefinition
      ListTreesReply: MessageTypeDefinition
      ListTreesRequest: MessageTypeDefinition
      PathStep: MessageTypeDefinition
      SaveTreeRequest: MessageTypeDefinition
      TaskOptionsReply: MessageTypeDefinition
      TaskOptionsRequest: MessageTypeDefinition
      TrainDone: MessageTypeDefinition
      TrainEvent: MessageTypeDefinition
      TrainImage: MessageTypeDefinition
      TrainRequest: MessageTypeDefinition
      TrainScalar: MessageTypeDefinition
      TrainStage: MessageTypeDefinition
      Tree: SubtypeConstructor<typeof grpc.Client, _metarank_v1_TreeClient> & { service: _metarank_v1_TreeDefinition }
      TreeAlgorithm: MessageTypeDefinition
      TreeArg: MessageTypeDefinition
      TreeDataset: MessageTypeDefinition
      TreeEdit: MessageTypeDefinition
      TreeGraph: MessageTypeDefinition
      TreeJobDone: MessageTypeDefinition
      TreeJobEvent: MessageTypeDefinition
      TreeModelInfo: MessageTypeDefinition
      TreeNode: MessageTypeDefinition
      TreePoolImage: MessageTypeDefinition
      TreePoolReply: MessageTypeDefinition
      TreePoolRequest: MessageTypeDefinition
      TreePredictReply: MessageTypeDefinition
      TreePredictRequest: MessageTypeDefinition
    }
  }
}

