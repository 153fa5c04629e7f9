// Original file: proto/metarank/v1/inspection.proto


export interface DetectCracksReply {
  'hasCrack'?: (boolean);
  'lengthMm'?: (number | string);
  'maxWidthMm'?: (number | string);
  'meanWidthMm'?: (number | string);
  'pieces'?: (number);
  'crackPixels'?: (number);
  'maskPng'?: (Buffer | Uint8Array | string);
  'width'?: (number);
  'height'?: (number);
  'format'?: (string);
  'modelName'?: (string);
  'mmPerPixel'?: (number | string);
  'elapsedMs'?: (number | string);
}

export interface DetectCracksReply__Output {
  'hasCrack': (boolean);
  'lengthMm': (number);
  'maxWidthMm': (number);
  'meanWidthMm': (number);
  'pieces': (number);
  'crackPixels': (number);
  'maskPng': (Buffer);
  'width': (number);
  'height': (number);
  'format': (string);
  'modelName': (string);
  'mmPerPixel': (number);
  'elapsedMs': (number);
}
