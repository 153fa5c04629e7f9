// Original file: proto/metarank/v1/vqa.proto

import type { VqaTypeAccuracy as _metarank_v1_VqaTypeAccuracy, VqaTypeAccuracy__Output as _metarank_v1_VqaTypeAccuracy__Output } from '../../metarank/v1/VqaTypeAccuracy.ts';
import type { VqaSynonym as _metarank_v1_VqaSynonym, VqaSynonym__Output as _metarank_v1_VqaSynonym__Output } from '../../metarank/v1/VqaSynonym.ts';

export interface VqaModel {
  'id'?: (string);
  'dataset'?: (string);
  'description'?: (string);
  'inputHeight'?: (number);
  'inputWidth'?: (number);
  'vocabulary'?: (string)[];
  'answers'?: (string)[];
  'testAccuracy'?: (number | string);
  'imageBlindAccuracy'?: (number | string);
  'questionBlindAccuracy'?: (number | string);
  'perType'?: (_metarank_v1_VqaTypeAccuracy)[];
  'algorithms'?: (string)[];
  'exampleQuestions'?: (string)[];
  'testQuestions'?: (number);
  'synonyms'?: (_metarank_v1_VqaSynonym)[];
  'testAccuracyZh'?: (number | string);
  'imageBlindAccuracyZh'?: (number | string);
}

export interface VqaModel__Output {
  'id': (string);
  'dataset': (string);
  'description': (string);
  'inputHeight': (number);
  'inputWidth': (number);
  'vocabulary': (string)[];
  'answers': (string)[];
  'testAccuracy': (number);
  'imageBlindAccuracy': (number);
  'questionBlindAccuracy': (number);
  'perType': (_metarank_v1_VqaTypeAccuracy__Output)[];
  'algorithms': (string)[];
  'exampleQuestions': (string)[];
  'testQuestions': (number);
  'synonyms': (_metarank_v1_VqaSynonym__Output)[];
  'testAccuracyZh': (number);
  'imageBlindAccuracyZh': (number);
}
