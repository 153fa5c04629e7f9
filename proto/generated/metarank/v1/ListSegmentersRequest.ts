// Original file: proto/metarank/v1/segmentation.proto


export interface ListSegmentersRequest {
}

export interface ListSegmentersRequest__Output {
}
