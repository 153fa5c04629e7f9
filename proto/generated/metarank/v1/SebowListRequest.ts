// Original file: proto/metarank/v1/sebow.proto


export interface SebowListRequest {
}

export interface SebowListRequest__Output {
}
