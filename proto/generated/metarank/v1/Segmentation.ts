// Original file: proto/metarank/v1/segmentation.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListSegmentersReply as _metarank_v1_ListSegmentersReply, ListSegmentersReply__Output as _metarank_v1_ListSegmentersReply__Output } from '../../metarank/v1/ListSegmentersReply.ts';
import type { ListSegmentersRequest as _metarank_v1_ListSegmentersRequest, ListSegmentersRequest__Output as _metarank_v1_ListSegmentersRequest__Output } from '../../metarank/v1/ListSegmentersRequest.ts';
import type { SegExplainReply as _metarank_v1_SegExplainReply, SegExplainReply__Output as _metarank_v1_SegExplainReply__Output } from '../../metarank/v1/SegExplainReply.ts';
import type { SegExplainRequest as _metarank_v1_SegExplainRequest, SegExplainRequest__Output as _metarank_v1_SegExplainRequest__Output } from '../../metarank/v1/SegExplainRequest.ts';
import type { SegmentReply as _metarank_v1_SegmentReply, SegmentReply__Output as _metarank_v1_SegmentReply__Output } from '../../metarank/v1/SegmentReply.ts';
import type { SegmentRequest as _metarank_v1_SegmentRequest, SegmentRequest__Output as _metarank_v1_SegmentRequest__Output } from '../../metarank/v1/SegmentRequest.ts';

export interface SegmentationClient extends grpc.Client {
  Explain(argument: _metarank_v1_SegExplainRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SegExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_SegExplainRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SegExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_SegExplainRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SegExplainReply__Output>): grpc.ClientUnaryCall;
  Explain(argument: _metarank_v1_SegExplainRequest, callback: grpc.requestCallback<_metarank_v1_SegExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_SegExplainRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SegExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_SegExplainRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SegExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_SegExplainRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SegExplainReply__Output>): grpc.ClientUnaryCall;
  explain(argument: _metarank_v1_SegExplainRequest, callback: grpc.requestCallback<_metarank_v1_SegExplainReply__Output>): grpc.ClientUnaryCall;
  
  ListSegmenters(argument: _metarank_v1_ListSegmentersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListSegmentersReply__Output>): grpc.ClientUnaryCall;
  ListSegmenters(argument: _metarank_v1_ListSegmentersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListSegmentersReply__Output>): grpc.ClientUnaryCall;
  ListSegmenters(argument: _metarank_v1_ListSegmentersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListSegmentersReply__Output>): grpc.ClientUnaryCall;
  ListSegmenters(argument: _metarank_v1_ListSegmentersRequest, callback: grpc.requestCallback<_metarank_v1_ListSegmentersReply__Output>): grpc.ClientUnaryCall;
  listSegmenters(argument: _metarank_v1_ListSegmentersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListSegmentersReply__Output>): grpc.ClientUnaryCall;
  listSegmenters(argument: _metarank_v1_ListSegmentersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_ListSegmentersReply__Output>): grpc.ClientUnaryCall;
  listSegmenters(argument: _metarank_v1_ListSegmentersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_ListSegmentersReply__Output>): grpc.ClientUnaryCall;
  listSegmenters(argument: _metarank_v1_ListSegmentersRequest, callback: grpc.requestCallback<_metarank_v1_ListSegmentersReply__Output>): grpc.ClientUnaryCall;
  
  Segment(argument: _metarank_v1_SegmentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SegmentReply__Output>): grpc.ClientUnaryCall;
  Segment(argument: _metarank_v1_SegmentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SegmentReply__Output>): grpc.ClientUnaryCall;
  Segment(argument: _metarank_v1_SegmentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SegmentReply__Output>): grpc.ClientUnaryCall;
  Segment(argument: _metarank_v1_SegmentRequest, callback: grpc.requestCallback<_metarank_v1_SegmentReply__Output>): grpc.ClientUnaryCall;
  segment(argument: _metarank_v1_SegmentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SegmentReply__Output>): grpc.ClientUnaryCall;
  segment(argument: _metarank_v1_SegmentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_metarank_v1_SegmentReply__Output>): grpc.ClientUnaryCall;
  segment(argument: _metarank_v1_SegmentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_metarank_v1_SegmentReply__Output>): grpc.ClientUnaryCall;
  segment(argument: _metarank_v1_SegmentRequest, callback: grpc.requestCallback<_metarank_v1_SegmentReply__Output>): grpc.ClientUnaryCall;
  
}

export interface SegmentationHandlers extends grpc.UntypedServiceImplementation {
  Explain: grpc.handleUnaryCall<_metarank_v1_SegExplainRequest__Output, _metarank_v1_SegExplainReply>;
  
  ListSegmenters: grpc.handleUnaryCall<_metarank_v1_ListSegmentersRequest__Output, _metarank_v1_ListSegmentersReply>;
  
  Segment: grpc.handleUnaryCall<_metarank_v1_SegmentRequest__Output, _metarank_v1_SegmentReply>;
  
}

export interface SegmentationDefinition extends grpc.ServiceDefinition {
  Explain: MethodDefinition<_metarank_v1_SegExplainRequest, _metarank_v1_SegExplainReply, _metarank_v1_SegExplainRequest__Output, _metarank_v1_SegExplainReply__Output>
  ListSegmenters: MethodDefinition<_metarank_v1_ListSegmentersRequest, _metarank_v1_ListSegmentersReply, _metarank_v1_ListSegmentersRequest__Output, _metarank_v1_ListSegmentersReply__Output>
  Segment: MethodDefinition<_metarank_v1_SegmentRequest, _metarank_v1_SegmentReply, _metarank_v1_SegmentRequest__Output, _metarank_v1_SegmentReply__Output>
}
