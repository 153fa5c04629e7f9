// Original file: proto/metarank/v1/metascore.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { InsertCandidateRequest as _metarank_v1_InsertCandidateRequest, InsertCandidateRequest__Output as _metarank_v1_InsertCandidateRequest__Output } from '../../metarank/v1/InsertCandidateRequest.ts';
import type { InsertCandidateResponse as _metarank_v1_InsertCandidateResponse, InsertCandidateResponse__Output as _metarank_v1_InsertCandidateResponse__Output } from '../../metarank/v1/InsertCandidateResponse.ts';
import type { RankBoardRequest as _metarank_v1_RankBoardRequest, RankBoardRequest__Output as _metarank_v1_RankBoardRequest__Output } from '../../metarank/v1/RankBoardRequest.ts';
import type { RankBoardResponse as _metarank_v1_RankBoardResponse, RankBoardResponse__Output as _metarank_v1_RankBoardResponse__Output } from '../../metarank/v1/RankBoardResponse.ts';
import type { ValidateResultFilesRequest as _metarank_v1_ValidateResultFilesRequest, ValidateResultFilesRequest__Output as _metarank_v1_ValidateResultFilesRequest__Output } from '../../metarank/v1/ValidateResultFilesRequest.ts';
import type { ValidateResultFilesResponse as _metarank_v1_ValidateResultFilesResponse, ValidateResultFilesResponse__Output as _metarank_v1_ValidateResultFilesResponse__Output } from '../../metarank/v1/ValidateResultFilesResponse.ts';

export interface MetascoreClient extends grpc.Client {
  InsertCandidate(argument: _metarank_v1_InsertCandidateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_InsertCandidateResponse__Output>): grpc.ClientUnaryCall;
  InsertCandidate(argument: _metarank_v1_InsertCandidateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_InsertCandidateResponse__Output>): grpc.ClientUnaryCall;
  InsertCandidate(argument: _metarank_v1_InsertCandidateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_InsertCandidateResponse__Output>): grpc.ClientUnaryCall;
  InsertCandidate(argument: _metarank_v1_InsertCandidateRequest, callback: grpc.requestCallback<_metarank_v1_InsertCandidateResponse__Output>): grpc.ClientUnaryCall;
  insertCandidate(argument: _metarank_v1_InsertCandidateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_InsertCandidateResponse__Output>): grpc.ClientUnaryCall;
  insertCandidate(argument: _metarank_v1_InsertCandidateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_InsertCandidateResponse__Output>): grpc.ClientUnaryCall;
  insertCandidate(argument: _metarank_v1_InsertCandidateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_InsertCandidateResponse__Output>): grpc.ClientUnaryCall;
  insertCandidate(argument: _metarank_v1_InsertCandidateRequest, callback: grpc.requestCallback<_metarank_v1_InsertCandidateResponse__Output>): grpc.ClientUnaryCall;
  
  RankBoard(argument: _metarank_v1_RankBoardRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_RankBoardResponse__Output>): grpc.ClientUnaryCall;
  RankBoard(argument: _metarank_v1_RankBoardRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_RankBoardResponse__Output>): grpc.ClientUnaryCall;
  RankBoard(argument: _metarank_v1_RankBoardRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_RankBoardResponse__Output>): grpc.ClientUnaryCall;
  RankBoard(argument: _metarank_v1_RankBoardRequest, callback: grpc.requestCallback<_metarank_v1_RankBoardResponse__Output>): grpc.ClientUnaryCall;
  rankBoard(argument: _metarank_v1_RankBoardRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_RankBoardResponse__Output>): grpc.ClientUnaryCall;
  rankBoard(argument: _metarank_v1_RankBoardRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_RankBoardResponse__Output>): grpc.ClientUnaryCall;
  rankBoard(argument: _metarank_v1_RankBoardRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_RankBoardResponse__Output>): grpc.ClientUnaryCall;
  rankBoard(argument: _metarank_v1_RankBoardRequest, callback: grpc.requestCallback<_metarank_v1_RankBoardResponse__Output>): grpc.ClientUnaryCall;
  
  ValidateResultFiles(argument: _metarank_v1_ValidateResultFilesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ValidateResultFilesResponse__Output>): grpc.ClientUnaryCall;
  ValidateResultFiles(argument: _metarank_v1_ValidateResultFilesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ValidateResultFilesResponse__Output>): grpc.ClientUnaryCall;
  ValidateResultFiles(argument: _metarank_v1_ValidateResultFilesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ValidateResultFilesResponse__Output>): grpc.ClientUnaryCall;
  ValidateResultFiles(argument: _metarank_v1_ValidateResultFilesRequest, callback: grpc.requestCallback<_metarank_v1_ValidateResultFilesResponse__Output>): grpc.ClientUnaryCall;
  validateResultFiles(argument: _metarank_v1_ValidateResultFilesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ValidateResultFilesResponse__Output>): grpc.ClientUnaryCall;
  validateResultFiles(argument: _metarank_v1_ValidateResultFilesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ValidateResultFilesResponse__Output>): grpc.ClientUnaryCall;
  validateResultFiles(argument: _metarank_v1_ValidateResultFilesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ValidateResultFilesResponse__Output>): grpc.ClientUnaryCall;
  validateResultFiles(argument: _metarank_v1_ValidateResultFilesRequest, callback: grpc.requestCallback<_metarank_v1_ValidateResultFilesResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface MetascoreHandlers extends grpc.UntypedServiceImplementation {
  InsertCandidate: grpc.handleUnaryCall<_metarank_v1_InsertCandidateRequest__Output, _metarank_v1_InsertCandidateResponse>;
  
  RankBoard: grpc.handleUnaryCall<_metarank_v1_RankBoardRequest__Output, _metarank_v1_RankBoardResponse>;
  
  ValidateResultFiles: grpc.handleUnaryCall<_metarank_v1_ValidateResultFilesRequest__Output, _metarank_v1_ValidateResultFilesResponse>;
  
}

export interface MetascoreDefinition extends grpc.ServiceDefinition {
  InsertCandidate: MethodDefinition<_metarank_v1_InsertCandidateRequest, _metarank_v1_InsertCandidateResponse, _metarank_v1_InsertCandidateRequest__Output, _metarank_v1_InsertCandidateResponse__Output>
  RankBoard: MethodDefinition<_metarank_v1_RankBoardRequest, _metarank_v1_RankBoardResponse, _metarank_v1_RankBoardRequest__Output, _metarank_v1_RankBoardResponse__Output>
  ValidateResultFiles: MethodDefinition<_metarank_v1_ValidateResultFilesRequest, _metarank_v1_ValidateResultFilesResponse, _metarank_v1_ValidateResultFilesRequest__Output, _metarank_v1_ValidateResultFilesResponse__Output>
}
