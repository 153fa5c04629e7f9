// Original file: proto/metarank/v1/telemetry.proto


export interface TelemetryStreamRequest {
  'includeLatest'?: (boolean);
}

export interface TelemetryStreamRequest__Output {
  'includeLatest': (boolean);
}
