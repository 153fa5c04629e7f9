// Original file: proto/metarank/v1/inference.proto


export interface ListAlgorithmsRequest {
}

export interface ListAlgorithmsRequest__Output {
}
