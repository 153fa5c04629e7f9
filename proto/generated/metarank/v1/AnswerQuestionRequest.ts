// Original file: proto/metarank/v1/vqa.proto


export interface AnswerQuestionRequest {
  'modelId'?: (string);
  'algorithm'?: (string);
  'imagePng'?: (Buffer | Uint8Array | string);
  'question'?: (string);
  'nSteps'?: (number);
}

export interface AnswerQuestionRequest__Output {
  'modelId': (string);
  'algorithm': (string);
  'imagePng': (Buffer);
  'question': (string);
  'nSteps': (number);
}
