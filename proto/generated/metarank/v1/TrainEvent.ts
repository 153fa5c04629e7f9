// Original file: proto/metarank/v1/tree.proto

import type { TrainStage as _metarank_v1_TrainStage, TrainStage__Output as _metarank_v1_TrainStage__Output } from '../../metarank/v1/TrainStage.ts';
import type { TrainScalar as _metarank_v1_TrainScalar, TrainScalar__Output as _metarank_v1_TrainScalar__Output } from '../../metarank/v1/TrainScalar.ts';
import type { TrainImage as _metarank_v1_TrainImage, TrainImage__Output as _metarank_v1_TrainImage__Output } from '../../metarank/v1/TrainImage.ts';
import type { TrainDone as _metarank_v1_TrainDone, TrainDone__Output as _metarank_v1_TrainDone__Output } from '../../metarank/v1/TrainDone.ts';

export interface TrainEvent {
  'log'?: (string);
  'stage'?: (_metarank_v1_TrainStage | null);
  'scalar'?: (_metarank_v1_TrainScalar | null);
  'image'?: (_metarank_v1_TrainImage | null);
  'done'?: (_metarank_v1_TrainDone | null);
  'progress'?: (number | string);
  'event'?: "log"|"stage"|"scalar"|"image"|"done";
}

export interface TrainEvent__Output {
  'log'?: (string);
  'stage'?: (_metarank_v1_TrainStage__Output | null);
  'scalar'?: (_metarank_v1_TrainScalar__Output | null);
  'image'?: (_metarank_v1_TrainImage__Output | null);
  'done'?: (_metarank_v1_TrainDone__Output | null);
  'progress': (number);
  'event'?: "log"|"stage"|"scalar"|"image"|"done";
}
