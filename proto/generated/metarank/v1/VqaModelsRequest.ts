// Original file: proto/metarank/v1/vqa.proto


export interface VqaModelsRequest {
}

export interface VqaModelsRequest__Output {
}
