// Original file: proto/metarank/v1/inference.proto


export interface ReportGpuRequest {
}

export interface ReportGpuRequest__Output {
}
