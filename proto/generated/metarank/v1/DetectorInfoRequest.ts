// Original file: proto/metarank/v1/inspection.proto


export interface DetectorInfoRequest {
}

export interface DetectorInfoRequest__Output {
}
