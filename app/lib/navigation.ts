// The top menu's entries in one place. Every demo page is listed under DEMOS; a later demo
// (segmentation, question answering, concepts, trees) adds one line here and one translation
// key in app/locales/<lng>/common.json under "menu".
export interface MenuLink {
  to: string;
  /** key in the common namespace */
  key: string;
  /** shown only to signed-in users / administrators */
  who?: "user" | "admin";
}
export interface MenuGroup {
  key: string;
  links: MenuLink[];
}
export type MenuEntry = MenuLink | MenuGroup;

export const DEMO_PAGES: (MenuLink & { textKey: string; icon: string })[] = [
  { to: "/UserImgclassification", key: "menu.demoClassification", textKey: "demos.demoClassificationText", icon: "pi-images" },
  { to: "/UserImgsegmentation", key: "menu.demoSegmentation", textKey: "demos.demoSegmentationText", icon: "pi-clone" },
  { to: "/voc", key: "menu.demoVoc", textKey: "demos.demoVocText", icon: "pi-list" },
  { to: "/scenes", key: "menu.demoScenes", textKey: "demos.demoScenesText", icon: "pi-objects-column" },
  { to: "/scenesebow", key: "menu.demoSceneSebow", textKey: "demos.demoSceneSebowText", icon: "pi-share-alt" },
  { to: "/cifarsebow", key: "menu.demoCifarSebow", textKey: "demos.demoCifarSebowText", icon: "pi-share-alt" },
  { to: "/imagenet", key: "menu.demoImagenet", textKey: "demos.demoImagenetText", icon: "pi-globe" },
  { to: "/coco", key: "menu.demoCoco", textKey: "demos.demoCocoText", icon: "pi-camera" },
  { to: "/twodresult", key: "menu.demoCracks", textKey: "demos.demoCracksText", icon: "pi-th-large" },
  { to: "/dam3d", key: "menu.demoDam", textKey: "demos.demoDamText", icon: "pi-box" },
  { to: "/tcav", key: "menu.demoConcepts", textKey: "demos.demoConceptsText", icon: "pi-palette" },
  { to: "/cub", key: "menu.demoCub", textKey: "demos.demoCubText", icon: "pi-sitemap" },
  { to: "/cars", key: "menu.demoCars", textKey: "demos.demoCarsText", icon: "pi-car" },
  { to: "/UserQuery", key: "menu.demoVqa", textKey: "demos.demoVqaText", icon: "pi-comments" },
];

export const MENU: MenuEntry[] = [
  { to: "/homepage", key: "menu.home" },
  { to: "/Algorithm", key: "menu.tutorial" },
  { to: "/leaderboard", key: "menu.leaderboard" },
  { key: "menu.demos", links: [{ to: "/demos", key: "demos.demosTitle" }, ...DEMO_PAGES] },
  {
    key: "menu.datasets",
    links: [
      { to: "/datasetPreview", key: "menu.datasetGallery" },
      { to: "/datasetInDetail", key: "menu.myDatasets", who: "user" },
      { to: "/labelPage", key: "menu.labelling", who: "user" },
      { to: "/task", key: "menu.tasks", who: "user" },
    ],
  },
  { to: "/document", key: "menu.docs" },
  { to: "/submission", key: "menu.submission" },
  { to: "/history", key: "menu.history" },
  { to: "/approval", key: "menu.approval", who: "admin" },
];

export const isGroup = (e: MenuEntry): e is MenuGroup => "links" in e;

/** The entries a viewer sees: links for signed-in users or admins only are left out for others. */
export function menuFor(viewer: { isAdmin: boolean } | null): MenuEntry[] {
  const visible = (l: MenuLink) => !l.who || (l.who === "user" ? viewer !== null : Boolean(viewer?.isAdmin));
  return MENU.flatMap((e): MenuEntry[] => {
    if (!isGroup(e)) return visible(e) ? [e] : [];
    const links = e.links.filter(visible);
    return links.length ? [{ ...e, links }] : [];
  });
}
