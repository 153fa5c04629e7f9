// Words of seed 001 that both the server and the browser show.
export const DATA_DETAILS_WARNING = "Sorry, dataset viewing is not available on this server due to insufficient storage space.";
export const NO_MATCH_TEXT = "未找到符合条件的数据集！";
export const CLASSIFICATION_MSG = {
  chooseModel: "请选择要使用的模型",
  chooseAlgorithm: "请选择要使用的算法",
  chooseImage: "请选择要解释的图像",
  success: "The algorithm executed successfully!",
};
