// Original file: proto/metarank/v1/inspection.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DetectCracksReply as _metarank_v1_DetectCracksReply, DetectCracksReply__Output as _metarank_v1_DetectCracksReply__Output } from '../../metarank/v1/DetectCracksReply.ts';
import type { DetectCracksRequest as _metarank_v1_DetectCracksRequest, DetectCracksRequest__Output as _metarank_v1_DetectCracksRequest__Output } from '../../metarank/v1/DetectCracksRequest.ts';
import type { DetectorInfoReply as _metarank_v1_DetectorInfoReply, DetectorInfoReply__Output as _metarank_v1_DetectorInfoReply__Output } from '../../metarank/v1/DetectorInfoReply.ts';
import type { DetectorInfoRequest as _metarank_v1_DetectorInfoRequest, DetectorInfoRequest__Output as _metarank_v1_DetectorInfoRequest__Output } from '../../metarank/v1/DetectorInfoRequest.ts';

export interface InspectionClient extends grpc.Client {
  DetectCracks(argument: _metarank_v1_DetectCracksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_DetectCracksReply__Output>): grpc.ClientUnaryCall;
  DetectCracks(argument: _metarank_v1_DetectCracksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_DetectCracksReply__Output>): grpc.ClientUnaryCall;
  DetectCracks(argument: _metarank_v1_DetectCracksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_DetectCracksReply__Output>): grpc.ClientUnaryCall;
  DetectCracks(argument: _metarank_v1_DetectCracksRequest, callback: grpc.requestCallback<_metarank_v1_DetectCracksReply__Output>): grpc.ClientUnaryCall;
  detectCracks(argument: _metarank_v1_DetectCracksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_DetectCracksReply__Output>): grpc.ClientUnaryCall;
  detectCracks(argument: _metarank_v1_DetectCracksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_DetectCracksReply__Output>): grpc.ClientUnaryCall;
  detectCracks(argument: _metarank_v1_DetectCracksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_DetectCracksReply__Output>): grpc.ClientUnaryCall;
  detectCracks(argument: _metarank_v1_DetectCracksRequest, callback: grpc.requestCallback<_metarank_v1_DetectCracksReply__Output>): grpc.ClientUnaryCall;
  
  DetectorInfo(argument: _metarank_v1_DetectorInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_DetectorInfoReply__Output>): grpc.ClientUnaryCall;
  DetectorInfo(argument: _metarank_v1_DetectorInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_DetectorInfoReply__Output>): grpc.ClientUnaryCall;
  DetectorInfo(argument: _metarank_v1_DetectorInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_DetectorInfoReply__Output>): grpc.ClientUnaryCall;
  DetectorInfo(argument: _metarank_v1_DetectorInfoRequest, callback: grpc.requestCallback<_metarank_v1_DetectorInfoReply__Output>): grpc.ClientUnaryCall;
  detectorInfo(argument: _metarank_v1_DetectorInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_DetectorInfoReply__Output>): grpc.ClientUnaryCall;
  detectorInfo(argument: _metarank_v1_DetectorInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_DetectorInfoReply__Output>): grpc.ClientUnaryCall;
  detectorInfo(argument: _metarank_v1_DetectorInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_DetectorInfoReply__Output>): grpc.ClientUnaryCall;
  detectorInfo(argument: _metarank_v1_DetectorInfoRequest, callback: grpc.requestCallback<_metarank_v1_DetectorInfoReply__Output>): grpc.ClientUnaryCall;
  
}

export interface InspectionHandlers extends grpc.UntypedServiceImplementation {
  DetectCracks: grpc.handleUnaryCall<_metarank_v1_DetectCracksRequest__Output, _metarank_v1_DetectCracksReply>;
  
  DetectorInfo: grpc.handleUnaryCall<_metarank_v1_DetectorInfoRequest__Output, _metarank_v1_DetectorInfoReply>;
  
}

export interface InspectionDefinition extends grpc.ServiceDefinition {
  DetectCracks: MethodDefinition<_metarank_v1_DetectCracksRequest, _metarank_v1_DetectCracksReply, _metarank_v1_DetectCracksRequest__Output, _metarank_v1_DetectCracksReply__Output>
  DetectorInfo: MethodDefinition<_metarank_v1_DetectorInfoRequest, _metarank_v1_DetectorInfoReply, _metarank_v1_DetectorInfoRequest__Output, _metarank_v1_DetectorInfoReply__Output>
}
