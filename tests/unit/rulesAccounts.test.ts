import { describe, expect, it } from "vitest";
import { MSG, checkPhone, checkUsername, validateRegisterShape } from "../../app/lib/rules/accounts.ts";
import { authorityLabel, validatePasswordChange } from "../../app/lib/rules/profile.ts";

const valid = {
  account: "alice",
  pass: "p",
  checkPass: "p",
  phoneNumber: "13800138000",
  verificationCode: "ab12",
  institute: "",
  authority: "0",
  checkAdministrator: "",
};

describe("register rules", () => {
  it("accepts a valid form", () => expect(validateRegisterShape(valid)).toEqual({}));
  it.each([
    [{ account: "" }, "account", MSG.usernameRequired],
    [{ account: "   " }, "account", MSG.usernameRequired],
    [{ account: "x".repeat(201) }, "account", MSG.usernameTooLong],
    [{ pass: "", checkPass: "" }, "pass", MSG.passwordRequired],
    [{ checkPass: "" }, "checkPass", MSG.checkPassRequired],
    [{ checkPass: "q" }, "checkPass", MSG.passwordsDiffer],
    [{ phoneNumber: "" }, "phoneNumber", MSG.phoneRequired],
    [{ phoneNumber: "1380013800a" }, "phoneNumber", MSG.phoneNumeric],
    [{ phoneNumber: "+8613800138000" }, "phoneNumber", MSG.phoneNumeric],
    [{ phoneNumber: "1380013800" }, "phoneNumber", MSG.phoneLength],
    [{ phoneNumber: "138001380001" }, "phoneNumber", MSG.phoneLength],
    [{ verificationCode: "" }, "verificationCode", MSG.codeRequired],
    [{ authority: "2" }, "authority", MSG.authorityInvalid],
  ])("%o → %s: %s", (patch, field, message) => {
    expect(validateRegisterShape({ ...valid, ...patch })[field]).toBe(message);
  });
  it("allows exactly 200 characters", () => expect(checkUsername("x".repeat(200))).toBeUndefined());
  it("phone of exactly 11 digits passes", () => expect(checkPhone("01234567890")).toBeUndefined());
});

describe("password dialog rules", () => {
  it("requires all three and equality", () => {
    expect(validatePasswordChange({ oldPassword: "", newPassword: "", confirmPassword: "" })).toEqual({
      oldPassword: MSG.pwdRequired,
      newPassword: MSG.pwdRequired,
      confirmPassword: MSG.pwdAgain,
    });
    expect(validatePasswordChange({ oldPassword: "a", newPassword: "b", confirmPassword: "c" })).toEqual({ confirmPassword: MSG.pwdMismatch });
    expect(validatePasswordChange({ oldPassword: "a", newPassword: "b", confirmPassword: "b" })).toEqual({});
  });
  it("labels authority like the profile screen", () => {
    // Translation keys of the account namespace (Admin / User, 管理员 / 普通用户).
    expect(authorityLabel(1)).toBe("profile.roleAdmin");
    expect(authorityLabel(0)).toBe("profile.roleUser");
    expect(authorityLabel(-1)).toBe("profile.roleUser");
  });
});
