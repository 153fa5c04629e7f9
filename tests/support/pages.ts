// Every page of the README's route list as someone who may open it (visitor, user, admin), with
// the query strings that open its other screens. Shared by the every-page language test
// (tests/integration/crawl.test.ts) and the accessibility check (tests/e2e/axe.e2e.ts).
export type Who = "visitor" | "user" | "admin";

export const PAGES: Array<[string, Who]> = [
  ["/homepage", "visitor"],
  ["/Algorithm", "visitor"],
  ["/leaderboard", "visitor"],
  ["/datasetPreview", "visitor"],
  ["/datasetPreview?tab=users", "visitor"],
  ["/demos", "visitor"],
  ["/UserImgclassification", "visitor"],
  ["/UserImgclassification?tab=pool", "visitor"],
  ["/twodresult", "visitor"],
  ["/twodresult", "user"],
  ["/dam3d", "visitor"],
  ["/tcav", "visitor"],
  ["/UserQuery", "visitor"],
  ["/document", "visitor"],
  ["/signin", "visitor"],
  ["/signin?tab=register", "visitor"],
  ["/profile", "user"],
  ["/profile?dialog=edit", "user"],
  ["/profile?dialog=password", "user"],
  ["/submission", "user"],
  ["/UserImgsegmentation", "user"],
  ["/history", "user"],
  ["/datasetInDetail", "user"],
  ["/labelPage", "user"],
  ["/approval", "admin"],
  ["/user", "admin"],
  ["/admin/ranking", "admin"],
  ["/admin/manage_server", "admin"],
  ["/admin/manage_server?dialog=create", "admin"],
  ["/admin/evaluations", "admin"],
  ["/admin/search_queries", "admin"],
  ["/no-such-page", "visitor"],
];
