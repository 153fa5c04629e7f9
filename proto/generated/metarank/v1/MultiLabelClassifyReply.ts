// Original file: proto/metarank/v1/multilabel.proto

import type { RankedLabel as _metarank_v1_RankedLabel, RankedLabel__Output as _metarank_v1_RankedLabel__Output } from '../../metarank/v1/RankedLabel.ts';

export interface MultiLabelClassifyReply {
  'ranked'?: (_metarank_v1_RankedLabel)[];
  'classNames'?: (string)[];
  'elapsedMs'?: (number | string);
}

export interface MultiLabelClassifyReply__Output {
  'ranked': (_metarank_v1_RankedLabel__Output)[];
  'classNames': (string)[];
  'elapsedMs': (number);
}
