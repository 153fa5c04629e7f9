// Original file: proto/metarank/v1/multilabel.proto

import type { MultiLabelModelInfo as _metarank_v1_MultiLabelModelInfo, MultiLabelModelInfo__Output as _metarank_v1_MultiLabelModelInfo__Output } from '../../metarank/v1/MultiLabelModelInfo.ts';

export interface ListMultiLabelModelsReply {
  'models'?: (_metarank_v1_MultiLabelModelInfo)[];
  'problems'?: (string)[];
}

export interface ListMultiLabelModelsReply__Output {
  'models': (_metarank_v1_MultiLabelModelInfo__Output)[];
  'problems': (string)[];
}
