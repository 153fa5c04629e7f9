// Original file: proto/metarank/v1/tree.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdjustTreeRequest as _metarank_v1_AdjustTreeRequest, AdjustTreeRequest__Output as _metarank_v1_AdjustTreeRequest__Output } from '../../metarank/v1/AdjustTreeRequest.ts';
import type { CandidatesReply as _metarank_v1_CandidatesReply, CandidatesReply__Output as _metarank_v1_CandidatesReply__Output } from '../../metarank/v1/CandidatesReply.ts';
import type { CandidatesRequest as _metarank_v1_CandidatesRequest, CandidatesRequest__Output as _metarank_v1_CandidatesRequest__Output } from '../../metarank/v1/CandidatesRequest.ts';
import type { ExportTreeRequest as _metarank_v1_ExportTreeRequest, ExportTreeRequest__Output as _metarank_v1_ExportTreeRequest__Output } from '../../metarank/v1/ExportTreeRequest.ts';
import type { FileChunk as _metarank_v1_FileChunk, FileChunk__Output as _metarank_v1_FileChunk__Output } from '../../metarank/v1/FileChunk.ts';
import type { GetTreeRequest as _metarank_v1_GetTreeRequest, GetTreeRequest__Output as _metarank_v1_GetTreeRequest__Output } from '../../metarank/v1/GetTreeRequest.ts';
import type { ListTreesReply as _metarank_v1_ListTreesReply, ListTreesReply__Output as _metarank_v1_ListTreesReply__Output } from '../../metarank/v1/ListTreesReply.ts';
import type { ListTreesRequest as _metarank_v1_ListTreesRequest, ListTreesRequest__Output as _metarank_v1_ListTreesRequest__Output } from '../../metarank/v1/ListTreesRequest.ts';
import type { SaveTreeRequest as _metarank_v1_SaveTreeRequest, SaveTreeRequest__Output as _metarank_v1_SaveTreeRequest__Output } from '../../metarank/v1/SaveTreeRequest.ts';
import type { TaskOptionsReply as _metarank_v1_TaskOptionsReply, TaskOptionsReply__Output as _metarank_v1_TaskOptionsReply__Output } from '../../metarank/v1/TaskOptionsReply.ts';
import type { TaskOptionsRequest as _metarank_v1_TaskOptionsRequest, TaskOptionsRequest__Output as _metarank_v1_TaskOptionsRequest__Output } from '../../metarank/v1/TaskOptionsRequest.ts';
import type { TrainEvent as _metarank_v1_TrainEvent, TrainEvent__Output as _metarank_v1_TrainEvent__Output } from '../../metarank/v1/TrainEvent.ts';
import type { TrainRequest as _metarank_v1_TrainRequest, TrainRequest__Output as _metarank_v1_TrainRequest__Output } from '../../metarank/v1/TrainRequest.ts';
import type { TreeGraph as _metarank_v1_TreeGraph, TreeGraph__Output as _metarank_v1_TreeGraph__Output } from '../../metarank/v1/TreeGraph.ts';
import type { TreeJobEvent as _metarank_v1_TreeJobEvent, TreeJobEvent__Output as _metarank_v1_TreeJobEvent__Output } from '../../metarank/v1/TreeJobEvent.ts';
import type { TreePoolReply as _metarank_v1_TreePoolReply, TreePoolReply__Output as _metarank_v1_TreePoolReply__Output } from '../../metarank/v1/TreePoolReply.ts';
import type { TreePoolRequest as _metarank_v1_TreePoolRequest, TreePoolRequest__Output as _metarank_v1_TreePoolRequest__Output } from '../../metarank/v1/TreePoolRequest.ts';
import type { TreePredictReply as _metarank_v1_TreePredictReply, TreePredictReply__Output as _metarank_v1_TreePredictReply__Output } from '../../metarank/v1/TreePredictReply.ts';
import type { TreePredictRequest as _metarank_v1_TreePredictRequest, TreePredictRequest__Output as _metarank_v1_TreePredictRequest__Output } from '../../metarank/v1/TreePredictRequest.ts';

export interface TreeClient extends grpc.Client {
  AdjustTree(argument: _metarank_v1_AdjustTreeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TreeJobEvent__Output>;
  AdjustTree(argument: _metarank_v1_AdjustTreeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TreeJobEvent__Output>;
  adjustTree(argument: _metarank_v1_AdjustTreeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TreeJobEvent__Output>;
  adjustTree(argument: _metarank_v1_AdjustTreeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TreeJobEvent__Output>;
  
  Candidates(argument: _metarank_v1_CandidatesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_CandidatesReply__Output>): grpc.ClientUnaryCall;
  Candidates(argument: _metarank_v1_CandidatesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_CandidatesReply__Output>): grpc.ClientUnaryCall;
  Candidates(argument: _metarank_v1_CandidatesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_CandidatesReply__Output>): grpc.ClientUnaryCall;
  Candidates(argument: _metarank_v1_CandidatesRequest, callback: grpc.requestCallback<_metarank_v1_CandidatesReply__Output>): grpc.ClientUnaryCall;
  candidates(argument: _metarank_v1_CandidatesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_CandidatesReply__Output>): grpc.ClientUnaryCall;
  candidates(argument: _metarank_v1_CandidatesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_CandidatesReply__Output>): grpc.ClientUnaryCall;
  candidates(argument: _metarank_v1_CandidatesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_CandidatesReply__Output>): grpc.ClientUnaryCall;
  candidates(argument: _metarank_v1_CandidatesRequest, callback: grpc.requestCallback<_metarank_v1_CandidatesReply__Output>): grpc.ClientUnaryCall;
  
  Export(argument: _metarank_v1_ExportTreeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_FileChunk__Output>;
  Export(argument: _metarank_v1_ExportTreeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_FileChunk__Output>;
  export(argument: _metarank_v1_ExportTreeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_FileChunk__Output>;
  export(argument: _metarank_v1_ExportTreeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_FileChunk__Output>;
  
  GetTree(argument: _metarank_v1_GetTreeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreeGraph__Output>): grpc.ClientUnaryCall;
  GetTree(argument: _metarank_v1_GetTreeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TreeGraph__Output>): grpc.ClientUnaryCall;
  GetTree(argument: _metarank_v1_GetTreeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreeGraph__Output>): grpc.ClientUnaryCall;
  GetTree(argument: _metarank_v1_GetTreeRequest, callback: grpc.requestCallback<_metarank_v1_TreeGraph__Output>): grpc.ClientUnaryCall;
  getTree(argument: _metarank_v1_GetTreeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreeGraph__Output>): grpc.ClientUnaryCall;
  getTree(argument: _metarank_v1_GetTreeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TreeGraph__Output>): grpc.ClientUnaryCall;
  getTree(argument: _metarank_v1_GetTreeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreeGraph__Output>): grpc.ClientUnaryCall;
  getTree(argument: _metarank_v1_GetTreeRequest, callback: grpc.requestCallback<_metarank_v1_TreeGraph__Output>): grpc.ClientUnaryCall;
  
  ListTrees(argument: _metarank_v1_ListTreesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListTreesReply__Output>): grpc.ClientUnaryCall;
  ListTrees(argument: _metarank_v1_ListTreesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListTreesReply__Output>): grpc.ClientUnaryCall;
  ListTrees(argument: _metarank_v1_ListTreesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListTreesReply__Output>): grpc.ClientUnaryCall;
  ListTrees(argument: _metarank_v1_ListTreesRequest, callback: grpc.requestCallback<_metarank_v1_ListTreesReply__Output>): grpc.ClientUnaryCall;
  listTrees(argument: _metarank_v1_ListTreesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListTreesReply__Output>): grpc.ClientUnaryCall;
  listTrees(argument: _metarank_v1_ListTreesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListTreesReply__Output>): grpc.ClientUnaryCall;
  listTrees(argument: _metarank_v1_ListTreesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListTreesReply__Output>): grpc.ClientUnaryCall;
  listTrees(argument: _metarank_v1_ListTreesRequest, callback: grpc.requestCallback<_metarank_v1_ListTreesReply__Output>): grpc.ClientUnaryCall;
  
  Pool(argument: _metarank_v1_TreePoolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreePoolReply__Output>): grpc.ClientUnaryCall;
  Pool(argument: _metarank_v1_TreePoolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TreePoolReply__Output>): grpc.ClientUnaryCall;
  Pool(argument: _metarank_v1_TreePoolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreePoolReply__Output>): grpc.ClientUnaryCall;
  Pool(argument: _metarank_v1_TreePoolRequest, callback: grpc.requestCallback<_metarank_v1_TreePoolReply__Output>): grpc.ClientUnaryCall;
  pool(argument: _metarank_v1_TreePoolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreePoolReply__Output>): grpc.ClientUnaryCall;
  pool(argument: _metarank_v1_TreePoolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TreePoolReply__Output>): grpc.ClientUnaryCall;
  pool(argument: _metarank_v1_TreePoolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreePoolReply__Output>): grpc.ClientUnaryCall;
  pool(argument: _metarank_v1_TreePoolRequest, callback: grpc.requestCallback<_metarank_v1_TreePoolReply__Output>): grpc.ClientUnaryCall;
  
  Predict(argument: _metarank_v1_TreePredictRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreePredictReply__Output>): grpc.ClientUnaryCall;
  Predict(argument: _metarank_v1_TreePredictRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TreePredictReply__Output>): grpc.ClientUnaryCall;
  Predict(argument: _metarank_v1_TreePredictRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreePredictReply__Output>): grpc.ClientUnaryCall;
  Predict(argument: _metarank_v1_TreePredictRequest, callback: grpc.requestCallback<_metarank_v1_TreePredictReply__Output>): grpc.ClientUnaryCall;
  predict(argument: _metarank_v1_TreePredictRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreePredictReply__Output>): grpc.ClientUnaryCall;
  predict(argument: _metarank_v1_TreePredictRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TreePredictReply__Output>): grpc.ClientUnaryCall;
  predict(argument: _metarank_v1_TreePredictRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TreePredictReply__Output>): grpc.ClientUnaryCall;
  predict(argument: _metarank_v1_TreePredictRequest, callback: grpc.requestCallback<_metarank_v1_TreePredictReply__Output>): grpc.ClientUnaryCall;
  
  SaveTree(argument: _metarank_v1_SaveTreeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TreeJobEvent__Output>;
  SaveTree(argument: _metarank_v1_SaveTreeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TreeJobEvent__Output>;
  saveTree(argument: _metarank_v1_SaveTreeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TreeJobEvent__Output>;
  saveTree(argument: _metarank_v1_SaveTreeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TreeJobEvent__Output>;
  
  TaskOptions(argument: _metarank_v1_TaskOptionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TaskOptionsReply__Output>): grpc.ClientUnaryCall;
  TaskOptions(argument: _metarank_v1_TaskOptionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TaskOptionsReply__Output>): grpc.ClientUnaryCall;
  TaskOptions(argument: _metarank_v1_TaskOptionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TaskOptionsReply__Output>): grpc.ClientUnaryCall;
  TaskOptions(argument: _metarank_v1_TaskOptionsRequest, callback: grpc.requestCallback<_metarank_v1_TaskOptionsReply__Output>): grpc.ClientUnaryCall;
  taskOptions(argument: _metarank_v1_TaskOptionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TaskOptionsReply__Output>): grpc.ClientUnaryCall;
  taskOptions(argument: _metarank_v1_TaskOptionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_TaskOptionsReply__Output>): grpc.ClientUnaryCall;
  taskOptions(argument: _metarank_v1_TaskOptionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_TaskOptionsReply__Output>): grpc.ClientUnaryCall;
  taskOptions(argument: _metarank_v1_TaskOptionsRequest, callback: grpc.requestCallback<_metarank_v1_TaskOptionsReply__Output>): grpc.ClientUnaryCall;
  
  Train(argument: _metarank_v1_TrainRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TrainEvent__Output>;
  Train(argument: _metarank_v1_TrainRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TrainEvent__Output>;
  train(argument: _metarank_v1_TrainRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TrainEvent__Output>;
  train(argument: _metarank_v1_TrainRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_metarank_v1_TrainEvent__Output>;
  
}

export interface TreeHandlers extends grpc.UntypedServiceImplementation {
  AdjustTree: grpc.handleServerStreamingCall<_metarank_v1_AdjustTreeRequest__Output, _metarank_v1_TreeJobEvent>;
  
  Candidates: grpc.handleUnaryCall<_metarank_v1_CandidatesRequest__Output, _metarank_v1_CandidatesReply>;
  
  Export: grpc.handleServerStreamingCall<_metarank_v1_ExportTreeRequest__Output, _metarank_v1_FileChunk>;
  
  GetTree: grpc.handleUnaryCall<_metarank_v1_GetTreeRequest__Output, _metarank_v1_TreeGraph>;
  
  ListTrees: grpc.handleUnaryCall<_metarank_v1_ListTreesRequest__Output, _metarank_v1_ListTreesReply>;
  
  Pool: grpc.handleUnaryCall<_metarank_v1_TreePoolRequest__Output, _metarank_v1_TreePoolReply>;
  
  Predict: grpc.handleUnaryCall<_metarank_v1_TreePredictRequest__Output, _metarank_v1_TreePredictReply>;
  
  SaveTree: grpc.handleServerStreamingCall<_metarank_v1_SaveTreeRequest__Output, _metarank_v1_TreeJobEvent>;
  
  TaskOptions: grpc.handleUnaryCall<_metarank_v1_TaskOptionsRequest__Output, _metarank_v1_TaskOptionsReply>;
  
  Train: grpc.handleServerStreamingCall<_metarank_v1_TrainRequest__Output, _metarank_v1_TrainEvent>;
  
}

export interface TreeDefinition extends grpc.ServiceDefinition {
  AdjustTree: MethodDefinition<_metarank_v1_AdjustTreeRequest, _metarank_v1_TreeJobEvent, _metarank_v1_AdjustTreeRequest__Output, _metarank_v1_TreeJobEvent__Output>
  Candidates: MethodDefinition<_metarank_v1_CandidatesRequest, _metarank_v1_CandidatesReply, _metarank_v1_CandidatesRequest__Output, _metarank_v1_CandidatesReply__Output>
  Export: MethodDefinition<_metarank_v1_ExportTreeRequest, _metarank_v1_FileChunk, _metarank_v1_ExportTreeRequest__Output, _metarank_v1_FileChunk__Output>
  GetTree: MethodDefinition<_metarank_v1_GetTreeRequest, _metarank_v1_TreeGraph, _metarank_v1_GetTreeRequest__Output, _metarank_v1_TreeGraph__Output>
  ListTrees: MethodDefinition<_metarank_v1_ListTreesRequest, _metarank_v1_ListTreesReply, _metarank_v1_ListTreesRequest__Output, _metarank_v1_ListTreesReply__Output>
  Pool: MethodDefinition<_metarank_v1_TreePoolRequest, _metarank_v1_TreePoolReply, _metarank_v1_TreePoolRequest__Output, _metarank_v1_TreePoolReply__Output>
  Predict: MethodDefinition<_metarank_v1_TreePredictRequest, _metarank_v1_TreePredictReply, _metarank_v1_TreePredictRequest__Output, _metarank_v1_TreePredictReply__Output>
  SaveTree: MethodDefinition<_metarank_v1_SaveTreeRequest, _metarank_v1_TreeJobEvent, _metarank_v1_SaveTreeRequest__Output, _metarank_v1_TreeJobEvent__Output>
  TaskOptions: MethodDefinition<_metarank_v1_TaskOptionsRequest, _metarank_v1_TaskOptionsReply, _metarank_v1_TaskOptionsRequest__Output, _metarank_v1_TaskOptionsReply__Output>
  Train: MethodDefinition<_metarank_v1_TrainRequest, _metarank_v1_TrainEvent, _metarank_v1_TrainRequest__Output, _metarank_v1_TrainEvent__Output>
}
