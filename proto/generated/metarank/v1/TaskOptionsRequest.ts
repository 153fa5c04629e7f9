// Original file: proto/metarank/v1/tree.proto


export interface TaskOptionsRequest {
}

export interface TaskOptionsRequest__Output {
}
