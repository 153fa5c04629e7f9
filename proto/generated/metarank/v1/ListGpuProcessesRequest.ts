// Original file: proto/metarank/v1/telemetry.proto


export interface ListGpuProcessesRequest {
}

export interface ListGpuProcessesRequest__Output {
}
