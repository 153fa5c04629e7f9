// Original file: proto/metarank/v1/kit.proto


export interface BuildKitRequest {
  'suiteId'?: (string);
  'task'?: (string);
}

export interface BuildKitRequest__Output {
  'suiteId': (string);
  'task': (string);
}
