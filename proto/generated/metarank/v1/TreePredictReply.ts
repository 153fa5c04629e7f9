// Original file: proto/metarank/v1/tree.proto

import type { PathStep as _metarank_v1_PathStep, PathStep__Output as _metarank_v1_PathStep__Output } from '../../metarank/v1/PathStep.ts';

export interface TreePredictReply {
  'groundTruth'?: (number);
  'groundTruthName'?: (string);
  'predicted'?: (number);
  'predictedName'?: (string);
  'probability'?: (number | string);
  'path'?: (_metarank_v1_PathStep)[];
  'leafId'?: (string);
  'leafDistribution'?: (number | string)[];
  'classNames'?: (string)[];
  'greedyPredicted'?: (number);
  'elapsedMs'?: (number | string);
}

export interface TreePredictReply__Output {
  'groundTruth': (number);
  'groundTruthName': (string);
  'predicted': (number);
  'predictedName': (string);
  'probability': (number);
  'path': (_metarank_v1_PathStep__Output)[];
  'leafId': (string);
  'leafDistribution': (number)[];
  'classNames': (string)[];
  'greedyPredicted': (number);
  'elapsedMs': (number);
}
