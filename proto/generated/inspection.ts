import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { InspectionClient as _metarank_v1_InspectionClient, InspectionDefinition as _metarank_v1_InspectionDefinition } from './metarank/v1/Inspection.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      DetectCracksReply: MessageTypeDefinition
      DetectCracksRequest: MessageTypeDefinition
      DetectorInfoReply: MessageTypeDefinition
      DetectorInfoRequest: MessageTypeDefinition
      ErrorSummary: MessageTypeDefinition
      Inspection: SubtypeConstructor<typeof grpc.Client, _metarank_v1_InspectionClient> & { service: _metarank_v1_InspectionDefinition }
    }
  }
}

