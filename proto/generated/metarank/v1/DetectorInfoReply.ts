// Original file: proto/metarank/v1/inspection.proto

import type { ErrorSummary as _metarank_v1_ErrorSummary, ErrorSummary__Output as _metarank_v1_ErrorSummary__Output } from '../../metarank/v1/ErrorSummary.ts';

export interface DetectorInfoReply {
  'modelName'?: (string);
  'method'?: (string);
  'evaluationData'?: (string);
  'evaluatedPhotos'?: (number);
  'precision'?: (number | string);
  'recall'?: (number | string);
  'lengthRelative'?: (_metarank_v1_ErrorSummary | null);
  'meanWidthMm'?: (_metarank_v1_ErrorSummary | null);
  'maxWidthMm'?: (_metarank_v1_ErrorSummary | null);
  'defaultMmPerPixel'?: (number | string);
  'maxPixels'?: (number);
}

export interface DetectorInfoReply__Output {
  'modelName': (string);
  'method': (string);
  'evaluationData': (string);
  'evaluatedPhotos': (number);
  'precision': (number);
  'recall': (number);
  'lengthRelative': (_metarank_v1_ErrorSummary__Output | null);
  'meanWidthMm': (_metarank_v1_ErrorSummary__Output | null);
  'maxWidthMm': (_metarank_v1_ErrorSummary__Output | null);
  'defaultMmPerPixel': (number);
  'maxPixels': (number);
}
