// Words of seed 001 that both the server and the browser show, as message refs (texts in
// app/locales/<lng>/datasets.json and demo.json: the seed's words in its language).
export const DATA_DETAILS_WARNING = "datasets:msg.dataDetailsWarning";
export const NO_MATCH_TEXT = "datasets:msg.noMatch";
export const CLASSIFICATION_MSG = {
  chooseModel: "demo:msg.chooseModel",
  chooseAlgorithm: "demo:msg.chooseAlgorithm",
  chooseImage: "demo:msg.chooseImage",
  success: "demo:msg.success",
};
