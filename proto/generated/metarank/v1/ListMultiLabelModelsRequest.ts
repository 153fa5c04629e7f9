// Original file: proto/metarank/v1/multilabel.proto


export interface ListMultiLabelModelsRequest {
}

export interface ListMultiLabelModelsRequest__Output {
}
