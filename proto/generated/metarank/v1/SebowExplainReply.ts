// Original file: proto/metarank/v1/sebow.proto

import type { SebowDecision as _metarank_v1_SebowDecision, SebowDecision__Output as _metarank_v1_SebowDecision__Output } from '../../metarank/v1/SebowDecision.ts';

export interface SebowExplainReply {
  'modelId'?: (string);
  'variant'?: (string);
  'algorithm'?: (string);
  'groundTruth'?: (number);
  'groundTruthName'?: (string);
  'predicted'?: (number);
  'predictedName'?: (string);
  'probability'?: (number | string);
  'classProbabilities'?: (number | string)[];
  'classNames'?: (string)[];
  'decisions'?: (_metarank_v1_SebowDecision)[];
  'leafId'?: (string);
  'leafDistribution'?: (number | string)[];
  'pathPredicted'?: (number);
  'patchRows'?: (number);
  'patchCols'?: (number);
  'patchImportance'?: (number | string)[];
  'patchChangesPath'?: (boolean)[];
  'heatmapPng'?: (Buffer | Uint8Array | string);
  'overlayPng'?: (Buffer | Uint8Array | string);
  'imagePng'?: (Buffer | Uint8Array | string);
  'elapsedMs'?: (number | string);
}

export interface SebowExplainReply__Output {
  'modelId': (string);
  'variant': (string);
  'algorithm': (string);
  'groundTruth': (number);
  'groundTruthName': (string);
  'predicted': (number);
  'predictedName': (string);
  'probability': (number);
  'classProbabilities': (number)[];
  'classNames': (string)[];
  'decisions': (_metarank_v1_SebowDecision__Output)[];
  'leafId': (string);
  'leafDistribution': (number)[];
  'pathPredicted': (number);
  'patchRows': (number);
  'patchCols': (number);
  'patchImportance': (number)[];
  'patchChangesPath': (boolean)[];
  'heatmapPng': (Buffer);
  'overlayPng': (Buffer);
  'imagePng': (Buffer);
  'elapsedMs': (number);
}
