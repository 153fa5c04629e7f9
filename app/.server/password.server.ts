export { hashPassword, verifyPassword } from "../../models/password.ts";
