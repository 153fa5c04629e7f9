// Original file: proto/metarank/v1/vqa.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AnswerQuestionReply as _metarank_v1_AnswerQuestionReply, AnswerQuestionReply__Output as _metarank_v1_AnswerQuestionReply__Output } from '../../metarank/v1/AnswerQuestionReply.ts';
import type { AnswerQuestionRequest as _metarank_v1_AnswerQuestionRequest, AnswerQuestionRequest__Output as _metarank_v1_AnswerQuestionRequest__Output } from '../../metarank/v1/AnswerQuestionRequest.ts';
import type { VqaModelsReply as _metarank_v1_VqaModelsReply, VqaModelsReply__Output as _metarank_v1_VqaModelsReply__Output } from '../../metarank/v1/VqaModelsReply.ts';
import type { VqaModelsRequest as _metarank_v1_VqaModelsRequest, VqaModelsRequest__Output as _metarank_v1_VqaModelsRequest__Output } from '../../metarank/v1/VqaModelsRequest.ts';

export interface QuestionAnsweringClient extends grpc.Client {
  AnswerQuestion(argument: _metarank_v1_AnswerQuestionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_AnswerQuestionReply__Output>): grpc.ClientUnaryCall;
  AnswerQuestion(argument: _metarank_v1_AnswerQuestionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_AnswerQuestionReply__Output>): grpc.ClientUnaryCall;
  AnswerQuestion(argument: _metarank_v1_AnswerQuestionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_AnswerQuestionReply__Output>): grpc.ClientUnaryCall;
  AnswerQuestion(argument: _metarank_v1_AnswerQuestionRequest, callback: grpc.requestCallback<_metarank_v1_AnswerQuestionReply__Output>): grpc.ClientUnaryCall;
  answerQuestion(argument: _metarank_v1_AnswerQuestionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_AnswerQuestionReply__Output>): grpc.ClientUnaryCall;
  answerQuestion(argument: _metarank_v1_AnswerQuestionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_AnswerQuestionReply__Output>): grpc.ClientUnaryCall;
  answerQuestion(argument: _metarank_v1_AnswerQuestionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_AnswerQuestionReply__Output>): grpc.ClientUnaryCall;
  answerQuestion(argument: _metarank_v1_AnswerQuestionRequest, callback: grpc.requestCallback<_metarank_v1_AnswerQuestionReply__Output>): grpc.ClientUnaryCall;
  
  VqaModels(argument: _metarank_v1_VqaModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_VqaModelsReply__Output>): grpc.ClientUnaryCall;
  VqaModels(argument: _metarank_v1_VqaModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_VqaModelsReply__Output>): grpc.ClientUnaryCall;
  VqaModels(argument: _metarank_v1_VqaModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_VqaModelsReply__Output>): grpc.ClientUnaryCall;
  VqaModels(argument: _metarank_v1_VqaModelsRequest, callback: grpc.requestCallback<_metarank_v1_VqaModelsReply__Output>): grpc.ClientUnaryCall;
  vqaModels(argument: _metarank_v1_VqaModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_VqaModelsReply__Output>): grpc.ClientUnaryCall;
  vqaModels(argument: _metarank_v1_VqaModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_VqaModelsReply__Output>): grpc.ClientUnaryCall;
  vqaModels(argument: _metarank_v1_VqaModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_VqaModelsReply__Output>): grpc.ClientUnaryCall;
  vqaModels(argument: _metarank_v1_VqaModelsRequest, callback: grpc.requestCallback<_metarank_v1_VqaModelsReply__Output>): grpc.ClientUnaryCall;
  
}

export interface QuestionAnsweringHandlers extends grpc.UntypedServiceImplementation {
  AnswerQuestion: grpc.handleUnaryCall<_metarank_v1_AnswerQuestionRequest__Output, _metarank_v1_AnswerQuestionReply>;
  
  VqaModels: grpc.handleUnaryCall<_metarank_v1_VqaModelsRequest__Output, _metarank_v1_VqaModelsReply>;
  
}

export interface QuestionAnsweringDefinition extends grpc.ServiceDefinition {
  AnswerQuestion: MethodDefinition<_metarank_v1_AnswerQuestionRequest, _metarank_v1_AnswerQuestionReply, _metarank_v1_AnswerQuestionRequest__Output, _metarank_v1_AnswerQuestionReply__Output>
  VqaModels: MethodDefinition<_metarank_v1_VqaModelsRequest, _metarank_v1_VqaModelsReply, _metarank_v1_VqaModelsRequest__Output, _metarank_v1_VqaModelsReply__Output>
}
