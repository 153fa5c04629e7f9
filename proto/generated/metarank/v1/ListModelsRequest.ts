// Original file: proto/metarank/v1/inference.proto


export interface ListModelsRequest {
}

export interface ListModelsRequest__Output {
}
