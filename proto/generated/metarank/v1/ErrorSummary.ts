// Original file: proto/metarank/v1/inspection.proto


export interface ErrorSummary {
  'bias'?: (number | string);
  'mae'?: (number | string);
  'p90'?: (number | string);
}

export interface ErrorSummary__Output {
  'bias': (number);
  'mae': (number);
  'p90': (number);
}
