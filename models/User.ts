import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute } from "sequelize";
import { sequelize } from "./db.ts";

/**
 * The form in which names are compared: NFKC (full-width and compatibility forms fold to their
 * plain letters) and case-folded, so "Alice", "ＡＬＩＣＥ" and "alice" are one name.
 */
export function usernameKey(name: string): string {
  return name.normalize("NFKC").toLowerCase().normalize("NFKC");
}

/** authority: 0 = ordinary user, 1 = administrator. */
export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare username: string;
  /** NFKC + case-folded username (usernameKey above), unique: look-alikes are one name. */
  declare usernameKey: CreationOptional<string>;
  declare passwordHash: string;
  declare telephone: string;
  declare institute: string;
  declare authority: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  get isAdmin(): NonAttribute<boolean> {
    return this.authority === 1;
  }
}

User.init(
  {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    username: { type: DataTypes.STRING(200), allowNull: false, unique: true },
    usernameKey: { type: DataTypes.STRING(200), allowNull: false, unique: true },
    passwordHash: { type: DataTypes.STRING(255), allowNull: false },
    telephone: { type: DataTypes.STRING(11), allowNull: false },
    institute: { type: DataTypes.STRING(255), allowNull: false, defaultValue: "" },
    authority: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  {
    sequelize,
    tableName: "users",
    hooks: {
      // Every way a user row is written keeps its comparison key in step with its name.
      beforeValidate(user) {
        if (user.username !== undefined) user.usernameKey = usernameKey(user.username);
      },
    },
  },
);
