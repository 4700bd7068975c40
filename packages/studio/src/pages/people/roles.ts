/** What each instance role means, shown beside the role pickers (docs/access-control.md "Users"). */
export const ROLE_HELP =
  'admin: everything, everywhere. editor, author, viewer: nothing by the role alone; access comes from grants per project.';
