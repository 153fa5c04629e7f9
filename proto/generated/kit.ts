import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { KitsClient as _metarank_v1_KitsClient, KitsDefinition as _metarank_v1_KitsDefinition } from './metarank/v1/Kits.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  metarank: {
    v1: {
      BuildKitRequest: MessageTypeDefinition
      KitChunk: MessageTypeDefinition
      KitHeader: MessageTypeDefinition
      Kits: SubtypeConstructor<typeof grpc.Client, _metarank_v1_KitsClient> & { service: _metarank_v1_KitsDefinition }
    }
  }
}

