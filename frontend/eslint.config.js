// ESLint for the front end: typescript-eslint, the rules of hooks, jsx-a11y, and the boundary
// between the public pages and the signed-in area (a public island must not pull dashboard code).
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = dirname(fileURLToPath(import.meta.url));

/** Features and islands of the signed-in area. Everything else under features/ and islands/ is public. */
export const DASHBOARD_FEATURES = ["dashboard", "bookings", "payments", "premium", "notifications", "messages", "disputes", "booking-actions", "payment-details", "push", "listings", "calendar", "account", "users", "cms"];
const isDashboardIsland = (name) => name.startsWith("Dashboard");

function area(file) {
  const path = relative(resolve(root, "src"), file).split("\\").join("/");
  const [top, name] = path.split("/");
  if (top === "features") return DASHBOARD_FEATURES.includes(name) ? "dashboard" : "public";
  if (top === "islands") return isDashboardIsland(name) ? "dashboard" : "public";
  if (top === "shared") return "shared";
  return "other";
}

/** Public islands and features never import dashboard code; shared code imports no feature at all. */
const boundaries = {
  meta: { type: "problem", messages: { public: "Public code must not import dashboard code ({{target}}).", shared: "Shared code must not import a feature ({{target}})." } },
  create(context) {
    const from = area(context.filename);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const target = resolve(dirname(context.filename), source);
      const to = area(target);
      const shown = relative(resolve(root, "src"), target);
      if (from === "public" && to === "dashboard") context.report({ node, messageId: "public", data: { target: shown } });
      if (from === "shared" && (to === "dashboard" || to === "public")) context.report({ node, messageId: "shared", data: { target: shown } });
    };
    return { ImportDeclaration: check, ImportExpression: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export default tseslint.config(
  { ignores: ["node_modules", "src/shared/api/schema.d.ts", "scripts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks, spacemarket: { rules: { boundaries } } },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "spacemarket/boundaries": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // The OTP boxes and the auth modal's first field take focus on purpose (spec 5: auto-advance).
      "jsx-a11y/no-autofocus": "off",
      // `role` is also a prop of our components (the user's role), not only an ARIA attribute.
      "jsx-a11y/aria-role": ["error", { ignoreNonDOM: true }],
    },
  },
  {
    files: ["src/**/*.test.{ts,tsx}", "src/shared/test/**"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
  { files: ["vite.config.ts", "eslint.config.js"], languageOptions: { globals: globals.node } },
);
