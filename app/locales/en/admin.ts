/** The superuser's admin panel. */
export default {
  title: "Admin",
  tabs: { overview: "Overview", users: "Users" },
  overviewPending: "Platform statistics will appear here.",
  search: { label: "Search users", placeholder: "Name or email address" },
  columns: { role: "Role", user: "User", joined: "Joined", options: "Options" },
  roles: { owner: "Owner", admin: "Admin", client: "Client" },
  options: {
    menu: "Options for {{name}}",
    sudo: "Sudo Login",
    paymentProvider: "View in payment provider",
  },
  noResults: "No Results",
  emptySearch: "Search for a user by name or email address.",
  account: "Account {{id}}",
};
