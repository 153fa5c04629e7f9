// Original file: proto/metarank/v1/evaluation.proto


export interface ListEvaluationSuitesRequest {
}

export interface ListEvaluationSuitesRequest__Output {
}
