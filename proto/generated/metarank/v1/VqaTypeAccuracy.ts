// Original file: proto/metarank/v1/vqa.proto


export interface VqaTypeAccuracy {
  'type'?: (string);
  'questions'?: (number);
  'model'?: (number | string);
  'imageBlind'?: (number | string);
  'questionBlind'?: (number | string);
}

export interface VqaTypeAccuracy__Output {
  'type': (string);
  'questions': (number);
  'model': (number);
  'imageBlind': (number);
  'questionBlind': (number);
}
