// Original file: proto/metarank/v1/vqa.proto


export interface VqaAnswerScore {
  'answer'?: (string);
  'probability'?: (number | string);
}

export interface VqaAnswerScore__Output {
  'answer': (string);
  'probability': (number);
}
