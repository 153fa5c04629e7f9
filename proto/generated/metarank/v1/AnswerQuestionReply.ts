// Original file: proto/metarank/v1/vqa.proto

import type { VqaAnswerScore as _metarank_v1_VqaAnswerScore, VqaAnswerScore__Output as _metarank_v1_VqaAnswerScore__Output } from '../../metarank/v1/VqaAnswerScore.ts';

export interface AnswerQuestionReply {
  'unknownWords'?: (string)[];
  'answer'?: (string);
  'probability'?: (number | string);
  'top'?: (_metarank_v1_VqaAnswerScore)[];
  'tokens'?: (string)[];
  'wordAttributions'?: (number | string)[];
  'textContribution'?: (number | string);
  'imageContribution'?: (number | string);
  'totalContribution'?: (number | string);
  'delta'?: (number | string);
  'inputPng'?: (Buffer | Uint8Array | string);
  'heatmapPng'?: (Buffer | Uint8Array | string);
  'overlayPng'?: (Buffer | Uint8Array | string);
  'algorithm'?: (string);
  'nSteps'?: (number);
  'explainedOutput'?: (string);
  'elapsedMs'?: (number | string);
}

export interface AnswerQuestionReply__Output {
  'unknownWords': (string)[];
  'answer': (string);
  'probability': (number);
  'top': (_metarank_v1_VqaAnswerScore__Output)[];
  'tokens': (string)[];
  'wordAttributions': (number)[];
  'textContribution': (number);
  'imageContribution': (number);
  'totalContribution': (number);
  'delta': (number);
  'inputPng': (Buffer);
  'heatmapPng': (Buffer);
  'overlayPng': (Buffer);
  'algorithm': (string);
  'nSteps': (number);
  'explainedOutput': (string);
  'elapsedMs': (number);
}
