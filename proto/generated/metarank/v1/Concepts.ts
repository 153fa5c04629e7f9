// Original file: proto/metarank/v1/concepts.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConceptCatalogueReply as _metarank_v1_ConceptCatalogueReply, ConceptCatalogueReply__Output as _metarank_v1_ConceptCatalogueReply__Output } from '../../metarank/v1/ConceptCatalogueReply.ts';
import type { ConceptCatalogueRequest as _metarank_v1_ConceptCatalogueRequest, ConceptCatalogueRequest__Output as _metarank_v1_ConceptCatalogueRequest__Output } from '../../metarank/v1/ConceptCatalogueRequest.ts';
import type { ConceptPoolReply as _metarank_v1_ConceptPoolReply, ConceptPoolReply__Output as _metarank_v1_ConceptPoolReply__Output } from '../../metarank/v1/ConceptPoolReply.ts';
import type { ConceptPoolRequest as _metarank_v1_ConceptPoolRequest, ConceptPoolRequest__Output as _metarank_v1_ConceptPoolRequest__Output } from '../../metarank/v1/ConceptPoolRequest.ts';
import type { RunTcavReply as _metarank_v1_RunTcavReply, RunTcavReply__Output as _metarank_v1_RunTcavReply__Output } from '../../metarank/v1/RunTcavReply.ts';
import type { RunTcavRequest as _metarank_v1_RunTcavRequest, RunTcavRequest__Output as _metarank_v1_RunTcavRequest__Output } from '../../metarank/v1/RunTcavRequest.ts';
import type { TcavEvent as _metarank_v1_TcavEvent, TcavEvent__Output as _metarank_v1_TcavEvent__Output } from '../../metarank/v1/TcavEvent.ts';

export interface ConceptsClient extends grpc.Client {
  ConceptCatalogue(argument: _metarank_v1_ConceptCatalogueRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ConceptCatalogueReply__Output>): grpc.ClientUnaryCall;
  ConceptCatalogue(argument: _metarank_v1_ConceptCatalogueRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ConceptCatalogueReply__Output>): grpc.ClientUnaryCall;
  ConceptCatalogue(argument: _metarank_v1_ConceptCatalogueRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ConceptCatalogueReply__Output>): grpc.ClientUnaryCall;
  ConceptCatalogue(argument: _metarank_v1_ConceptCatalogueRequest, callback: grpc.requestCallback<_metarank_v1_ConceptCatalogueReply__Output>): grpc.ClientUnaryCall;
  conceptCatalogue(argument: _metarank_v1_ConceptCatalogueRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ConceptCatalogueReply__Output>): grpc.ClientUnaryCall;
  conceptCatalogue(argument: _metarank_v1_ConceptCatalogueRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ConceptCatalogueReply__Output>): grpc.ClientUnaryCall;
  conceptCatalogue(argument: _metarank_v1_ConceptCatalogueRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ConceptCatalogueReply__Output>): grpc.ClientUnaryCall;
  conceptCatalogue(argument: _metarank_v1_ConceptCatalogueRequest, callback: grpc.requestCallback<_metarank_v1_ConceptCatalogueReply__Output>): grpc.ClientUnaryCall;
  
  ConceptPool(argument: _metarank_v1_ConceptPoolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ConceptPoolReply__Output>): grpc.ClientUnaryCall;
  ConceptPool(argument: _metarank_v1_ConceptPoolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ConceptPoolReply__Output>): grpc.ClientUnaryCall;
  ConceptPool(argument: _metarank_v1_ConceptPoolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ConceptPoolReply__Output>): grpc.ClientUnaryCall;
  ConceptPool(argument: _metarank_v1_ConceptPoolRequest, callback: grpc.requestCallback<_metarank_v1_ConceptPoolReply__Output>): grpc.ClientUnaryCall;
  conceptPool(argument: _metarank_v1_ConceptPoolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ConceptPoolReply__Output>): grpc.ClientUnaryCall;
  conceptPool(argument: _metarank_v1_ConceptPoolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ConceptPoolReply__Output>): grpc.ClientUnaryCall;
  conceptPool(argument: _metarank_v1_ConceptPoolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ConceptPoolReply__Output>): grpc.ClientUnaryCall;
  conceptPool(argument: _metarank_v1_ConceptPoolRequest, callback: grpc.requestCallback<_metarank_v1_ConceptPoolReply__Output>): grpc.ClientUnaryCall;
  
  RunTcav(argument: _metarank_v1_RunTcavRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_RunTcavReply__Output>): grpc.ClientUnaryCall;
  RunTcav(argument: _metarank_v1_RunTcavRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_RunTcavReply__Output>): grpc.ClientUnaryCall;
  RunTcav(argument: _metarank_v1_RunTcavRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_RunTcavReply__Output>): grpc.ClientUnaryCall;
  RunTcav(argument: _metarank_v1_RunTcavRequest, callback: grpc.requestCallback<_metarank_v1_RunTcavReply__Output>): grpc.ClientUnaryCall;
  runTcav(argument: _metarank_v1_RunTcavRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_RunTcavReply__Output>): grpc.ClientUnaryCall;
  runTcav(argument: _metarank_v1_RunTcavRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_RunTcavReply__Output>): grpc.ClientUnaryCall;
  runTcav(argument: _metarank_v1_RunTcavRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_RunTcavReply__Output>): grpc.ClientUnaryCall;
  runTcav(argument: _metarank_v1_RunTcavRequest, callback: grpc.requestCallback<_metarank_v1_RunTcavReply__Output>): grpc.ClientUnaryCall;
  
  RunTcavStream(argument: _metarank_v1_RunTcavRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TcavEvent__Output>;
  RunTcavStream(argument: _metarank_v1_RunTcavRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TcavEvent__Output>;
  runTcavStream(argument: _metarank_v1_RunTcavRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TcavEvent__Output>;
  runTcavStream(argument: _metarank_v1_RunTcavRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TcavEvent__Output>;
  
}

export interface ConceptsHandlers extends grpc.UntypedServiceImplementation {
  ConceptCatalogue: grpc.handleUnaryCall<_metarank_v1_ConceptCatalogueRequest__Output, _metarank_v1_ConceptCatalogueReply>;
  
  ConceptPool: grpc.handleUnaryCall<_metarank_v1_ConceptPoolRequest__Output, _metarank_v1_ConceptPoolReply>;
  
  RunTcav: grpc.handleUnaryCall<_metarank_v1_RunTcavRequest__Output, _metarank_v1_RunTcavReply>;
  
  RunTcavStream: grpc.handleServerStreamingCall<_metarank_v1_RunTcavRequest__Output, _metarank_v1_TcavEvent>;
  
}

export interface ConceptsDefinition extends grpc.ServiceDefinition {
  ConceptCatalogue: MethodDefinition<_metarank_v1_ConceptCatalogueRequest, _metarank_v1_ConceptCatalogueReply, _metarank_v1_ConceptCatalogueRequest__Output, _metarank_v1_ConceptCatalogueReply__Output>
  ConceptPool: MethodDefinition<_metarank_v1_ConceptPoolRequest, _metarank_v1_ConceptPoolReply, _metarank_v1_ConceptPoolRequest__Output, _metarank_v1_ConceptPoolReply__Output>
  RunTcav: MethodDefinition<_metarank_v1_RunTcavRequest, _metarank_v1_RunTcavReply, _metarank_v1_RunTcavRequest__Output, _metarank_v1_RunTcavReply__Output>
  RunTcavStream: MethodDefinition<_metarank_v1_RunTcavRequest, _metarank_v1_TcavEvent, _metarank_v1_RunTcavRequest__Output, _metarank_v1_TcavEvent__Output>
}
