// The app's view of the database: the Sequelize models of models/.
export * from "../../models/index.ts";
